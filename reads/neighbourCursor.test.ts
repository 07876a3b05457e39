import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCursorBelongs, decodeNeighbourCursor, encodeNeighbourCursor, type NeighbourCursor } from './neighbourCursor.ts';

const cursorArbitrary: fc.Arbitrary<NeighbourCursor> = fc.record({
  order: fc.constantFrom('newest' as const, 'peer' as const),
  direction: fc.constantFrom('out' as const, 'in' as const),
  type: fc.constantFrom('follows', 'likes'),
  vertex: fc.string({ minLength: 1, unit: 'grapheme' }),
  after: fc.uint8Array({ minLength: 1, maxLength: 40 }),
});

describe('neighbourCursor', () => {
  it('round-trips every cursor through an opaque base64url string', () => {
    fc.assert(
      fc.property(cursorArbitrary, (c) => {
        const text = encodeNeighbourCursor(c);
        expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeNeighbourCursor(text, { maxCursorBytes: 65_536, maxKeyBytes: 40 })).toEqual(c);
      }),
    );
  });

  it('refuses any other string naming the cursor, never with another error', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          decodeNeighbourCursor(text, { maxCursorBytes: 65_536, maxKeyBytes: 264 });
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

  const bounds = { maxCursorBytes: 512, maxKeyBytes: 264 };
  const forge = (doc: Record<string, unknown>) => Buffer.from(JSON.stringify(doc), 'utf8').toString('base64url');
  const genuine = { v: 1, o: 'peer', d: 'out', t: 'follows', x: 'a', k: '0102' };

  it('refuses a cursor longer than maxCursorBytes before decoding it, naming the cursor', () => {
    const long = encodeNeighbourCursor({ order: 'peer', direction: 'out', type: 'follows', vertex: 'v'.repeat(600), after: new Uint8Array([1]) });
    expect(() => decodeNeighbourCursor(long, bounds)).toThrow(/^cursor: is \d+ characters long, more than the 512 allowed/);
    expect(() => decodeNeighbourCursor('A'.repeat(1_000_000), bounds)).toThrow(/^cursor: is 1000000 characters long/);
  });

  it('refuses a decoded key larger than any key a page can end on', () => {
    const oversized = forge({ ...genuine, k: 'ab'.repeat(265) });
    expect(() => decodeNeighbourCursor(oversized, { ...bounds, maxCursorBytes: 4_096 })).toThrow(/^cursor: holds a 265-byte key, more than the 264 allowed/);
  });

  it('refuses forged documents: extra fields, an empty key, a non-canonical encoding', () => {
    expect(decodeNeighbourCursor(forge(genuine), bounds)).toMatchObject({ vertex: 'a', after: new Uint8Array([1, 2]) });
    expect(() => decodeNeighbourCursor(forge({ ...genuine, extra: 1 }), bounds)).toThrow(/^cursor: /);
    expect(() => decodeNeighbourCursor(forge({ ...genuine, k: '' }), bounds)).toThrow(/^cursor: /);
    expect(() => decodeNeighbourCursor(`${forge(genuine)}A`, bounds)).toThrow(/^cursor: /);
  });
});
