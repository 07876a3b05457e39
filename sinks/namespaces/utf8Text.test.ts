import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

describe('encodeUtf8', () => {
  it('gives the UTF-8 bytes of any well-formed string, ASCII fast path or not, and decodes back', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), (text) => {
        const bytes = encodeUtf8(text, 'test');
        expect([...bytes]).toEqual([...Buffer.from(text, 'utf8')]);
        expect(decodeUtf8(bytes, 'test')).toBe(text);
      }),
    );
  });

  it('rejects a lone surrogate, also after an ASCII prefix', () => {
    expect(() => encodeUtf8('abc\ud800', 'test')).toThrow(/lone UTF-16 surrogate/);
    expect(() => encodeUtf8('\udc00', 'test')).toThrow(/lone UTF-16 surrogate/);
  });
});
