import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { avroTypeFor, knownSchema, knownSchemas } from '../../schemas/index.ts';
import { MAX_ZERO_BYTE_ITEMS } from './compileBodyCheck.ts';
import { createAvroSerde } from './createAvroSerde.ts';
import { DecodeError } from './DecodeError.ts';
import { encodeWireFrame } from './encodeWireFrame.ts';
import { installAvscStepGuard, StepLimitExceeded } from './testHelpers/avscStepGuard.ts';
import { createStubSchemaRegistry } from './testHelpers/createStubSchemaRegistry.ts';
import { edgeMutationArb } from './testHelpers/edgeMutationArb.ts';
import { hostileEdgeMutations, varint } from './testHelpers/hostileBodies.ts';
import { kitchenSinkArb, kitchenSinkSchema } from './testHelpers/kitchenSink.ts';

/*
 * Issue 11 item 1: decode must terminate quickly on any bytes and fail only
 * with DecodeError. Every case runs under a step guard on avsc: bodies here
 * are at most a few KiB, so a bounded decode makes at most a few thousand Tap
 * reads plus MAX_ZERO_BYTE_ITEMS null items; STEP_LIMIT is about 4× that, and
 * a decode looping on a declared count reaches it within milliseconds.
 */
const STEP_LIMIT = 4 * (MAX_ZERO_BYTE_ITEMS + 4_096);
const guard = installAvscStepGuard(STEP_LIMIT);
afterAll(() => guard.uninstall());

const V1 = 1;
const V1_WITH_TAGS = 2; // a newer writer: v1 readers skip its extra array (avsc's skip path)
const SINK = 3;
const v1 = knownSchemas.EdgeMutation.avsc;
const withTags = { ...v1, fields: [...v1.fields, { name: 'tags', type: { type: 'array', items: 'string' }, default: [] }] };
const registry = createStubSchemaRegistry({ schemasById: { [V1]: v1, [V1_WITH_TAGS]: withTags, [SINK]: kitchenSinkSchema } });
const serde = createAvroSerde({ registry });
const sinkReader = knownSchema<unknown>({ avsc: kitchenSinkSchema, version: 1, subjectSuffix: 'value' });
const types = { [V1]: avroTypeFor(v1), [V1_WITH_TAGS]: avroTypeFor(withTags), [SINK]: avroTypeFor(kitchenSinkSchema) };
const readers = { [V1]: knownSchemas.EdgeMutation, [V1_WITH_TAGS]: knownSchemas.EdgeMutation, [SINK]: sinkReader } as const;

type SchemaId = keyof typeof types;

/** Decodes under the guard; returns what a failure was (or 'ok'). Throws (failing the case) for anything but a DecodeError. */
async function decodeGuarded(schemaId: SchemaId, body: Uint8Array): Promise<string> {
  guard.reset();
  try {
    await serde.decode(encodeWireFrame(schemaId, Buffer.from(body)), readers[schemaId]);
    return 'ok';
  } catch (e) {
    if (guard.tripped) throw new Error(`decode of a ${body.length}-byte body ran past ${STEP_LIMIT} avsc steps`, { cause: e });
    if (!DecodeError.is(e)) throw new Error(`decode failed with ${String(e)}, not a DecodeError`, { cause: e });
    expect(e.retriable).toBe(false);
    return e.code;
  }
}

/** Offsets where a varint may start (the first byte, or any byte after one without the continuation bit). */
function varintStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let i = 1; i < bytes.length; i++) if (((bytes[i - 1] as number) & 0x80) === 0) starts.push(i);
  return starts;
}

function varintEnd(bytes: Uint8Array, start: number): number {
  let i = start;
  while (i < bytes.length && ((bytes[i] as number) & 0x80) !== 0) i++;
  return Math.min(i + 1, bytes.length);
}

const hugeOrNegative = fc.oneof(
  fc.constantFrom(2n ** 31n - 1n, 2n ** 32n, 2n ** 40n, 2n ** 62n, 2n ** 63n - 1n, -1n, -(2n ** 40n), -(2n ** 63n)),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
);

type Mutation = (bytes: Uint8Array) => Uint8Array;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 4 }).map((flips): Mutation => (bytes) => {
    const out = Uint8Array.from(bytes);
    for (const [at, bit] of flips) if (out.length > 0) out[at % out.length] = (out[at % out.length] as number) ^ (1 << bit);
    return out;
  }),
  fc.nat().map((at): Mutation => (bytes) => bytes.subarray(0, bytes.length === 0 ? 0 : at % bytes.length)),
  fc.tuple(fc.nat(), fc.nat(), fc.uint8Array({ maxLength: 32 })).map(([at, cut, insert]): Mutation => (bytes) => {
    const from = bytes.length === 0 ? 0 : at % bytes.length;
    return Buffer.concat([bytes.subarray(0, from), insert, bytes.subarray(Math.min(bytes.length, from + (cut % 8)))]);
  }),
  fc.tuple(fc.nat(), hugeOrNegative).map(([pick, value]): Mutation => (bytes) => {
    const starts = varintStarts(bytes);
    const start = starts[pick % starts.length] as number;
    return Buffer.concat([bytes.subarray(0, start), varint(value), bytes.subarray(varintEnd(bytes, start))]);
  }),
);

const mutations = fc.array(mutation, { minLength: 1, maxLength: 3 });

/** Valid bodies to mutate: generated once (fixed seed), so the cases' time goes to decoding, not to building values. */
function pool<T>(id: SchemaId, values: fc.Arbitrary<T>): fc.Arbitrary<Uint8Array> {
  return fc.constantFrom(...fc.sample(values, { numRuns: 200, seed: 11 }).map((v) => types[id].toBuffer(v)));
}
const applyAll = (bytes: Uint8Array, ms: readonly Mutation[]) => ms.reduce((b, m) => m(b), bytes);

describe('createAvroSerde.decode on hostile bytes (fuzz)', () => {
  it('the step guard stops avsc on a declared map count when the body check is skipped (the guard works)', () => {
    const [mapCount] = hostileEdgeMutations(1n);
    guard.reset();
    expect(() => types[V1].fromBuffer(mapCount?.body as Buffer)).toThrow(StepLimitExceeded);
    expect(guard.tripped).toBe(true);
  });

  it('random bytes under each schema: DecodeError or a value, within the step guard (3 000 cases)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<SchemaId>(V1, V1_WITH_TAGS, SINK), fc.uint8Array({ maxLength: 300 }), async (id, body) => {
        await decodeGuarded(id, body);
      }),
      { numRuns: 3_000 },
    );
  });

  it('mutated EdgeMutations (bit flips, truncation, splices, varints rewritten huge or negative) (4 000 cases)', async () => {
    const codes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(pool(V1, edgeMutationArb), mutations, async (body, ms) => {
        codes.add(await decodeGuarded(V1, applyAll(body, ms)));
      }),
      { numRuns: 4_000 },
    );
    expect(codes).toContain('BAD_LENGTH'); // the mutations did reach declared counts and lengths
  });

  it('mutated newer-writer EdgeMutations read as v1, through avsc skipping the extra array (1 500 cases)', async () => {
    const tagged = fc.tuple(edgeMutationArb, fc.array(fc.string({ maxLength: 8 }), { maxLength: 6 })).map(([event, tags]) => ({ ...event, tags }));
    await fc.assert(
      fc.asyncProperty(pool(V1_WITH_TAGS, tagged), mutations, async (body, ms) => {
        await decodeGuarded(V1_WITH_TAGS, applyAll(body, ms));
      }),
      { numRuns: 1_500 },
    );
  });

  it('mutated kitchen-sink records (0-byte items, fixed, floats, a recursive union) (1 500 cases)', async () => {
    await fc.assert(
      fc.asyncProperty(pool(SINK, kitchenSinkArb), mutations, async (body, ms) => {
        await decodeGuarded(SINK, applyAll(body, ms));
      }),
      { numRuns: 1_500 },
    );
  });
});
