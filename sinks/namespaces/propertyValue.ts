import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * The value of a `T_props` cell: one tag byte, then the payload.
 *
 *   0x00 null     (no payload)
 *   0x01 boolean  0x00 | 0x01
 *   0x02 long     i64 BE, two's complement (an Avro long, a bigint here)
 *   0x03 double   f64 BE (NaN written as the canonical 0x7ff8000000000000)
 *   0x04 string   UTF-8
 *   0x05 bytes    raw
 *
 * Decoding returns exactly the union of EdgeMutation.properties, so a bigint
 * stays a bigint and a number stays a number (2n and 2 are different values).
 * NaN is canonicalised so equal values always encode to equal bytes (the
 * store's equal-write-time tie rule compares bytes).
 */
export type PropertyValue = null | boolean | bigint | number | string | Buffer;

const Tag = { null: 0x00, boolean: 0x01, long: 0x02, double: 0x03, string: 0x04, bytes: 0x05 } as const;
const CODEC = 'PropertyValue';
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

export function encodePropertyValue(value: PropertyValue): Uint8Array {
  if (value === null) return Uint8Array.of(Tag.null);
  switch (typeof value) {
    case 'boolean':
      return Uint8Array.of(Tag.boolean, value ? 1 : 0);
    case 'bigint': {
      if (value < I64_MIN || value > I64_MAX) throw new NamespaceCodecError(CODEC, `long ${value} does not fit a signed 64-bit integer`);
      return withPayload(Tag.long, 8, (view) => view.setBigInt64(0, value, false));
    }
    case 'number':
      return withPayload(Tag.double, 8, (view) => view.setFloat64(0, Number.isNaN(value) ? NaN : value, false));
    case 'string':
      return prefixed(Tag.string, encodeUtf8(value, CODEC));
    default:
      if (value instanceof Uint8Array) return prefixed(Tag.bytes, value);
      throw new NamespaceCodecError(CODEC, `cannot encode a ${typeof value}`);
  }
}

export function decodePropertyValue(bytes: Uint8Array): PropertyValue {
  const payload = bytes.subarray(1);
  switch (bytes[0]) {
    case Tag.null:
      expectLength(payload, 0, 'null');
      return null;
    case Tag.boolean:
      expectLength(payload, 1, 'boolean');
      if (payload[0] !== 0 && payload[0] !== 1) throw new NamespaceCodecError(CODEC, `boolean payload must be 0 or 1, got ${payload[0]}`);
      return payload[0] === 1;
    case Tag.long:
      expectLength(payload, 8, 'long');
      return view(payload).getBigInt64(0, false);
    case Tag.double:
      expectLength(payload, 8, 'double');
      return view(payload).getFloat64(0, false);
    case Tag.string:
      return decodeUtf8(payload, CODEC);
    case Tag.bytes:
      return Buffer.from(payload);
    case undefined:
      throw new NamespaceCodecError(CODEC, 'empty value (no tag byte)');
    default:
      throw new NamespaceCodecError(CODEC, `unknown tag 0x${bytes[0].toString(16).padStart(2, '0')}`);
  }
}

function withPayload(tag: number, size: number, write: (view: DataView) => void): Uint8Array {
  const out = new Uint8Array(1 + size);
  out[0] = tag;
  write(view(out.subarray(1)));
  return out;
}

function prefixed(tag: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + payload.length);
  out[0] = tag;
  out.set(payload, 1);
  return out;
}

function expectLength(payload: Uint8Array, length: number, what: string): void {
  if (payload.length !== length) throw new NamespaceCodecError(CODEC, `${what} needs a ${length}-byte payload, got ${payload.length}`);
}

const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
