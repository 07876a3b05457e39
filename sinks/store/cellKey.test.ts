import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesKey, cellKey } from './cellKey.ts';

describe('bytesKey / cellKey', () => {
  it('two byte strings get the same key exactly when they are equal, views included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), fc.uint8Array({ maxLength: 12 }), fc.nat(4), (a, b, pad) => {
        const view = new Uint8Array(pad + a.length);
        view.set(a, pad);
        expect(bytesKey(view.subarray(pad)) === bytesKey(a)).toBe(true);
        expect(bytesKey(a) === bytesKey(b)).toBe(Buffer.from(a).equals(Buffer.from(b)));
      }),
    );
  });

  it('cells differ when their namespace, id or key differ', () => {
    const k = new Uint8Array([0, 0x40, 0xff]);
    expect(new Set([cellKey('a', 'x', k), cellKey('b', 'x', k), cellKey('a', 'y', k), cellKey('a', 'x', k.subarray(1))]).size).toBe(4);
  });
});
