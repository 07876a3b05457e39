import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytes } from '../store/compareBytes.ts';
import { decodeLinkValue, encodeLinkValue, LinkState, type LinkValue } from './linkValue.ts';
import { isNamespaceCodecError } from './NamespaceCodecError.ts';

const linkValue = fc.record({
  state: fc.constantFrom(LinkState.ACTIVE, LinkState.REMOVED),
  time: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
  mutationId: fc.string({ unit: 'grapheme', maxLength: 20 }),
});

describe('LinkValue', () => {
  it('has the documented layout', () => {
    const bytes = encodeLinkValue({ state: 'REMOVED', time: 0x0102n, mutationId: 'm1' });
    expect([...bytes]).toEqual([0x01, 0x02, 0, 0, 0, 0, 0, 0, 0x01, 0x02, 0x6d, 0x31]);
  });

  it('round-trips', () => {
    fc.assert(
      fc.property(linkValue, (v) => {
        expect(decodeLinkValue(encodeLinkValue(v))).toEqual(v);
      }),
    );
  });

  it('at one time, REMOVED has greater bytes than ACTIVE whatever the mutation ids', () => {
    fc.assert(
      fc.property(linkValue, fc.string({ maxLength: 10 }), (v, otherId) => {
        const removed: LinkValue = { ...v, state: 'REMOVED' };
        const active: LinkValue = { ...v, state: 'ACTIVE', mutationId: otherId };
        expect(compareBytes(encodeLinkValue(removed), encodeLinkValue(active))).toBeGreaterThan(0);
      }),
    );
  });

  it.each([
    ['too short', [0x01, 0x01, 0, 0], /at least 10 bytes/],
    ['unknown version', [0x02, 0x01, 0, 0, 0, 0, 0, 0, 0, 1], /unknown version 0x02/],
    ['unknown state', [0x01, 0x03, 0, 0, 0, 0, 0, 0, 0, 1], /unknown state 0x03/],
    ['bad UTF-8 id', [0x01, 0x01, 0, 0, 0, 0, 0, 0, 0, 1, 0xff], /not valid UTF-8/],
  ])('rejects %s with a NamespaceCodecError', (_, bytes, message) => {
    let caught: unknown;
    try {
      decodeLinkValue(Uint8Array.from(bytes));
    } catch (e) {
      caught = e;
    }
    expect(isNamespaceCodecError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/^LinkValue: /);
    expect((caught as Error).message).toMatch(message);
  });

  it('rejects a time outside u64 and a lone surrogate on encode', () => {
    expect(() => encodeLinkValue({ state: 'ACTIVE', time: -1n, mutationId: 'm' })).toThrow(/unsigned 64-bit/);
    expect(() => encodeLinkValue({ state: 'ACTIVE', time: 1n, mutationId: '\ud800' })).toThrow(/lone UTF-16 surrogate/);
  });
});
