import fs from 'node:fs';
import readline from 'node:readline';
import { z } from 'zod';

/** A JSON property value: integers become Avro longs (bigint), other numbers doubles. */
const jsonProperty = z.union([z.null(), z.boolean(), z.number(), z.string()]).transform((v) => (typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v));
/** µs since the epoch, as a JSON integer or a decimal string (above 2^53 only a string is exact). */
const micros = z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform((v) => BigInt(v));
const common = { eventTime: micros.optional(), mutationId: z.string().optional() };
const edge = { type: z.string(), src: z.string(), dst: z.string(), ...common };
/** Add, hide and unhide write the whole link value: its edge time and its data (base64 in JSON). */
const edgeValue = { ...edge, edgeTime: micros.optional(), data: z.base64().transform((v) => Buffer.from(v, 'base64')).optional() };

/** One line of a `produce --file` NDJSON input. */
export const ndjsonOpSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('ADD_EDGE'), ...edgeValue, properties: z.record(z.string(), jsonProperty).optional() }),
  z.strictObject({ op: z.literal('REMOVE_EDGE'), ...edge }),
  z.strictObject({ op: z.literal('HIDE_EDGE'), ...edgeValue }),
  z.strictObject({ op: z.literal('UNHIDE_EDGE'), ...edgeValue }),
  z.strictObject({ op: z.literal('SET_PROPERTIES'), ...edge, properties: z.record(z.string(), jsonProperty) }),
  z.strictObject({ op: z.literal('REMOVE_PROPERTIES'), ...edge, keys: z.array(z.string()) }),
  z.strictObject({ op: z.literal('REMOVE_NODE'), vertex: z.string(), ...common }),
]);
export type NdjsonOp = z.output<typeof ndjsonOpSchema>;

/** Reads NDJSON ops; a bad line throws naming the file, line number and field. */
export async function* readNdjsonOps(file: string): AsyncGenerator<NdjsonOp> {
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      throw new Error(`${file}:${n}: not JSON: ${(e as Error).message}`);
    }
    const parsed = ndjsonOpSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${file}:${n}: ${issue?.path.join('.') || '(line)'}: ${issue?.message ?? 'invalid'}`);
    }
    yield parsed.data;
  }
}
