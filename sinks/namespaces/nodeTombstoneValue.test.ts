import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytes } from '../store/compareBytes.ts';
import { decodeNodeTombstoneValue, encodeNodeTombstoneValue } from './nodeTombstoneValue.ts';

const mutationId = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\u0000'));
const writtenAt = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });

describe('NodeTombstoneValue', () => {
  it('is version, mutation id, 0x00, written-at', () => {
    expect([...encodeNodeTombstoneValue({ mutationId: 'm', writtenAtMicros: 0x0102n })]).toEqual([1, 0x6d, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
  });

  it('round-trips', () => {
    fc.assert(
      fc.property(mutationId, writtenAt, (id, at) => {
        expect(decodeNodeTombstoneValue(encodeNodeTombstoneValue({ mutationId: id, writtenAtMicros: at }))).toEqual({
          mutationId: id,
          writtenAtMicros: at,
        });
      }),
    );
  });

  it('orders tombstones of different mutation ids by the ids alone, whatever the wall clocks', () => {
    fc.assert(
      fc.property(mutationId, mutationId, writtenAt, writtenAt, (a, b, atA, atB) => {
        fc.pre(a !== b);
        const byId = Math.sign(compareBytes(Buffer.from(a), Buffer.from(b)));
        const encoded = compareBytes(
          encodeNodeTombstoneValue({ mutationId: a, writtenAtMicros: atA }),
          encodeNodeTombstoneValue({ mutationId: b, writtenAtMicros: atB }),
        );
        expect(Math.sign(encoded)).toBe(byId);
      }),
    );
  });

  it('rejects U+0000 in the id and malformed bytes', () => {
    expect(() => encodeNodeTombstoneValue({ mutationId: 'a\u0000b', writtenAtMicros: 1n })).toThrow(/U\+0000/);
    expect(() => decodeNodeTombstoneValue(Uint8Array.of(1, 0, 0))).toThrow(/at least 10 bytes/);
    expect(() => decodeNodeTombstoneValue(Uint8Array.of(2, 0, 0, 0, 0, 0, 0, 0, 0, 0))).toThrow(/unknown version/);
    expect(() => decodeNodeTombstoneValue(Uint8Array.of(1, 0x61, 0x62, 0, 0, 0, 0, 0, 0, 0))).toThrow(/exactly one 0x00/);
  });
});
