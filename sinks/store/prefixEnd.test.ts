import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytes } from './compareBytes.ts';
import { keySuccessor, prefixEnd } from './prefixEnd.ts';

const hexOf = (u: Uint8Array | undefined): string | undefined => (u === undefined ? undefined : Buffer.from(u).toString('hex'));

describe('prefixEnd', () => {
  it.each([
    ['01', '02'],
    ['01ff', '02'],
    ['0aff7f', '0aff80'],
    ['ff', undefined],
    ['ffff', undefined],
    ['', undefined],
  ])('of %s is %s', (prefix, end) => {
    expect(hexOf(prefixEnd(Buffer.from(prefix, 'hex')))).toBe(end);
  });

  it('bounds exactly the keys that start with the prefix', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3 }), fc.uint8Array({ maxLength: 5 }), (prefix, key) => {
        const end = prefixEnd(prefix);
        const inRange = compareBytes(key, prefix) >= 0 && (end === undefined || compareBytes(key, end) < 0);
        const hasPrefix = Buffer.from(key).subarray(0, prefix.length).equals(Buffer.from(prefix)) && key.length >= prefix.length;
        expect(inRange).toBe(hasPrefix);
      }),
    );
  });

  it('does not modify its input', () => {
    const prefix = Uint8Array.of(1, 0xff);
    prefixEnd(prefix);
    expect([...prefix]).toEqual([1, 0xff]);
  });
});

describe('keySuccessor', () => {
  it('is the smallest key greater than the key', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4 }), fc.uint8Array({ maxLength: 5 }), (key, other) => {
        const next = keySuccessor(key);
        expect(compareBytes(next, key)).toBeGreaterThan(0);
        if (compareBytes(other, key) > 0) expect(compareBytes(other, next)).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
