import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesEqual, compareBytes } from './compareBytes.ts';

const sign = (n: number): number => Math.sign(n);

describe('compareBytes', () => {
  it.each([
    ['7f', '80', -1],
    ['80', 'ff', -1],
    ['ff', '00', 1],
    ['', '00', -1],
    ['01', '0100', -1],
    ['01ff', '02', -1],
    ['abcd', 'abcd', 0],
  ])('orders %s against %s as %i (unsigned, prefix first)', (a, b, expected) => {
    expect(sign(compareBytes(Buffer.from(a, 'hex'), Buffer.from(b, 'hex')))).toBe(expected);
  });

  it('agrees with Buffer.compare on random byte strings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), (a, b) => {
        expect(sign(compareBytes(a, b))).toBe(Buffer.compare(a, b));
        expect(bytesEqual(a, b)).toBe(Buffer.compare(a, b) === 0);
      }),
    );
  });
});
