import { propertyJson, type PropertyValue } from '../sinks/namespaces/index.ts';

/** Output helpers of the read commands: one JSON document on stdout, bigints as decimal strings, bytes (a link's `data`) as base64. */
export function printJson(document: unknown): void {
  console.log(
    JSON.stringify(document, function (this: Record<string, unknown>, key, value: unknown) {
      const raw = this[key]; // before Buffer#toJSON turned it into { type, data }
      if (raw instanceof Uint8Array) return Buffer.from(raw).toString('base64');
      return typeof value === 'bigint' ? value.toString() : value;
    }),
  );
}

/** An event time (µs) as ISO-8601 with microseconds. */
export function microsToIso(micros: bigint): string {
  const ms = micros / 1000n;
  const iso = new Date(Number(ms)).toISOString();
  const extra = String(((micros % 1000n) + 1000n) % 1000n).padStart(3, '0');
  return iso.replace(/Z$/, `${extra}Z`);
}

/** A property value for people: strings quoted, the type named. */
export function propertyText(value: PropertyValue): string {
  const { type, value: v } = propertyJson(value);
  return type === 'string' ? `${JSON.stringify(v)}` : `${String(v)} (${type})`;
}
