import { describe, expect, it } from 'vitest';
import { knownSchemas } from '../knownSchemas.ts';
import { avroTypeFor } from './avroTypeFor.ts';

describe('avroTypeFor', () => {
  const longType = avroTypeFor('long');

  it.each([0n, 1n, -1n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), 1_700_000_000_000_000n])(
    'round-trips long %s exactly as a bigint',
    (n) => {
      expect(longType.fromBuffer(longType.toBuffer(n))).toBe(n);
    },
  );

  it('writes longs as standard zigzag varints (wire-compatible with every Avro implementation)', () => {
    expect(longType.toBuffer(-1n).toString('hex')).toBe('01');
    expect(longType.toBuffer(64n).toString('hex')).toBe('8001');
  });

  it('rejects numbers and out-of-range bigints as longs', () => {
    expect(longType.isValid(1)).toBe(false);
    expect(longType.isValid(2n ** 63n)).toBe(false);
  });

  it('treats a long with a logicalType as a plain bigint long', () => {
    const t = avroTypeFor({ type: 'long', logicalType: 'timestamp-micros' });
    expect(t.fromBuffer(t.toBuffer(1_700_000_000_000_000n))).toBe(1_700_000_000_000_000n);
  });

  it('picks the union branch from the JS type: bigint → long, number → double', () => {
    const union = avroTypeFor(['null', 'boolean', 'long', 'double', 'string', 'bytes']);
    // The first byte is the zigzag branch index: long is branch 2, double branch 3.
    expect(union.toBuffer(3n)[0]).toBe(2 * 2);
    expect(union.toBuffer(3)[0]).toBe(3 * 2);
    expect(union.fromBuffer(union.toBuffer(3))).toBe(3);
    expect(union.fromBuffer(union.toBuffer(3n))).toBe(3n);
  });

  it('refuses a union it cannot decode unwrapped instead of changing the value shape', () => {
    expect(() => avroTypeFor(['float', 'double'])).toThrow(/ambiguous/);
  });

  it('decodes records as plain data without avsc record methods', () => {
    const t = avroTypeFor(knownSchemas.WidePartitionDetected.avsc);
    const value = {
      namespace: 'links_out',
      partition_id: 'alice',
      bytes_read: 1n,
      rows_read: 2n,
      rows_returned: 3n,
      detected_at: 4n,
      immutable: false,
      window_ms: 60_000n,
    };
    const decoded = t.fromBuffer(t.toBuffer(value)) as Record<string, unknown>;
    expect(decoded).toEqual(value);
    expect(decoded['clone']).toBeUndefined();
  });

  it('builds the same schema twice (no shared registry of names)', () => {
    expect(() => {
      avroTypeFor(knownSchemas.EdgeMutation.avsc);
      avroTypeFor(knownSchemas.EdgeMutation.avsc);
    }).not.toThrow();
  });
});

describe('avroTypeFor schema resolution into a union', () => {
  const reader = avroTypeFor(['null', 'boolean', 'long', 'double', 'string', 'bytes']);

  it.each([
    ['bytes', Buffer.from([0xde, 0xad])],
    ['string', 'ACTIVE'],
    ['long', 2n ** 60n],
    ['double', 0.5],
  ] as const)('reads a %s branch through the reader branch of the same type', (_kind, value) => {
    const resolver = reader.createResolver(avroTypeFor(['null', 'boolean', 'long', 'double', 'string', 'bytes']));
    expect(reader.fromBuffer(reader.toBuffer(value), resolver)).toEqual(value);
  });

  it('falls back to promotion when no branch has the same type (int → long)', () => {
    const writer = avroTypeFor(['null', 'int']);
    expect(reader.fromBuffer(writer.toBuffer(7), reader.createResolver(writer))).toBe(7n);
  });

  it('reads a writer bytes value as bytes even though string (which can promote it) comes first', () => {
    const writer = avroTypeFor('bytes');
    expect(reader.fromBuffer(writer.toBuffer(Buffer.from('hi')), reader.createResolver(writer))).toEqual(Buffer.from('hi'));
  });
});
