import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCursorBelongs, decodeNeighbourCursor, encodeNeighbourCursor, type NeighbourCursor } from './neighbourCursor.ts';

const cursorArbitrary: fc.Arbitrary<NeighbourCursor> = fc.record({
  order: fc.constantFrom('newest' as const, 'peer' as const),
  direction: fc.constantFrom('out' as const, 'in' as const),
  type: fc.constantFrom('follows', 'likes'),
  vertex: fc.string({ minLength: 1, unit: 'grapheme' }),
  after: fc.uint8Array({ maxLength: 40 }),
});

describe('neighbourCursor', () => {
  it('round-trips every cursor through an opaque base64url string', () => {
    fc.assert(
      fc.property(cursorArbitrary, (c) => {
        const text = encodeNeighbourCursor(c);
        expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeNeighbourCursor(text)).toEqual(c);
      }),
    );
  });

  it('refuses any other string naming the cursor, never with another error', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          decodeNeighbourCursor(text);
        } catch (e) {
          expect(e).toMatchObject({ argument: 'cursor' });
        }
      }),
    );
  });

  it('accepts a cursor only for the query that made it', () => {
    const c: NeighbourCursor = { order: 'newest', direction: 'out', type: 'follows', vertex: 'a', after: new Uint8Array([1]) };
    expect(() => checkCursorBelongs(c, { order: 'newest', direction: 'out', type: 'follows', vertex: 'a' })).not.toThrow();
    expect(() => checkCursorBelongs(c, { order: 'peer', direction: 'out', type: 'follows', vertex: 'a' })).toThrow(/^cursor: belongs to another query/);
  });
});
