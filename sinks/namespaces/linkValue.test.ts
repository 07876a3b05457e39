import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytes } from '../store/compareBytes.ts';
import { decodeLinkValue, encodeLinkValue, isActiveAtInvertedTime, isActiveLinkValue, LinkState, MAX_LINK_DATA_BYTES, type LinkValue } from './linkValue.ts';
import { decodeRecentKey, encodeRecentKey, MAX_TIME } from './recentKey.ts';
import { isNamespaceCodecError } from './NamespaceCodecError.ts';

const state = fc.constantFrom(LinkState.ACTIVE, LinkState.HIDDEN, LinkState.REMOVED);
const time = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const mutationId = fc.string({ unit: 'grapheme', maxLength: 20 });
const data = fc.uint8Array({ minLength: 1, maxLength: MAX_LINK_DATA_BYTES });
const linkValue: fc.Arbitrary<LinkValue> = fc
  .record({ state, time, mutationId, data: fc.option(data, { nil: undefined }) })
  .map(({ data: d, ...v }) => (d === undefined ? v : { ...v, data: d }));

/** A version 1 value, byte for byte as the codec before HIDDEN and data wrote it. */
function encodeV1(v: { state: 'ACTIVE' | 'REMOVED'; time: bigint; mutationId: string }): Uint8Array {
  const id = Buffer.from(v.mutationId, 'utf8');
  const out = Buffer.alloc(10 + id.length);
  out[0] = 0x01;
  out[1] = v.state === 'ACTIVE' ? 0x01 : 0x02;
  out.writeBigUInt64BE(v.time, 2);
  id.copy(out, 10);
  return out;
}

const RANK: Readonly<Record<LinkState, number>> = { ACTIVE: 0, HIDDEN: 1, REMOVED: 2 };

describe('LinkValue', () => {
  it('has the documented version 2 layout', () => {
    const bytes = encodeLinkValue({ state: 'HIDDEN', time: 0x0102n, mutationId: 'm1', data: Uint8Array.from([0xaa, 0xbb]) });
    expect([...bytes]).toEqual([0x02, 0x02, 0, 0, 0, 0, 0, 0, 0x01, 0x02, 0x02, 0xaa, 0xbb, 0x6d, 0x31]);
    expect([...encodeLinkValue({ state: 'REMOVED', time: 1n, mutationId: '' })]).toEqual([0x02, 0x03, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x00]);
  });

  it('isActiveAtInvertedTime is "ACTIVE with the entry\'s time" of the decoded link and recent key, byte by byte', () => {
    const entryTime = fc.bigInt({ min: 0n, max: MAX_TIME });
    fc.assert(
      fc.property(linkValue, entryTime, fc.boolean(), (v, t, same) => {
        const key = encodeRecentKey(same && v.time <= MAX_TIME ? v.time : t, 'peer');
        const { time } = decodeRecentKey(key);
        expect(isActiveAtInvertedTime(encodeLinkValue(v), key)).toBe(v.state === LinkState.ACTIVE && v.time === time);
      }),
    );
    // Times one bit apart, in the first byte and the last: only the exact time matches.
    const at = (t: bigint) => encodeLinkValue({ state: LinkState.ACTIVE, time: t, mutationId: 'm' });
    expect(isActiveAtInvertedTime(at(2n ** 62n), encodeRecentKey(2n ** 62n, 'p'))).toBe(true);
    expect(isActiveAtInvertedTime(at(2n ** 62n + 1n), encodeRecentKey(2n ** 62n, 'p'))).toBe(false);
    expect(isActiveAtInvertedTime(at(2n ** 63n), encodeRecentKey(0n, 'p'))).toBe(false);
    expect(isActiveAtInvertedTime(encodeV1({ state: 'ACTIVE', time: 7n, mutationId: 'm' }), encodeRecentKey(7n, 'p'))).toBe(true);
    expect(() => isActiveAtInvertedTime(Uint8Array.from([0x09, 0x01]), encodeRecentKey(7n, 'p'))).toThrow(/unknown version/);
  });

  it('isActiveLinkValue agrees with the decoded state for every v2 and v1 value, and refuses what decoding refuses', () => {
    fc.assert(
      fc.property(linkValue, (v) => {
        expect(isActiveLinkValue(encodeLinkValue(v))).toBe(v.state === LinkState.ACTIVE);
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom<'ACTIVE' | 'REMOVED'>('ACTIVE', 'REMOVED'), time, mutationId, (st, t, id) => {
        expect(isActiveLinkValue(encodeV1({ state: st, time: t, mutationId: id }))).toBe(st === 'ACTIVE');
      }),
    );
    for (const bad of [[], [0x02, 0x01], [0x03, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0x02, 0x09, 0, 0, 0, 0, 0, 0, 0, 0, 0]]) {
      expect(() => isActiveLinkValue(Uint8Array.from(bad))).toThrow(/LinkValue/);
    }
  });

  it('round-trips every state, time, id and data (absent data stays absent)', () => {
    fc.assert(
      fc.property(linkValue, (v) => {
        const decoded = decodeLinkValue(encodeLinkValue(v));
        expect(decoded).toEqual(v);
        expect('data' in decoded).toBe(v.data !== undefined);
      }),
    );
  });

  it('decodes version 1 values written before HIDDEN and data', () => {
    fc.assert(
      fc.property(fc.constantFrom('ACTIVE' as const, 'REMOVED' as const), time, mutationId, (s, t, id) => {
        const decoded = decodeLinkValue(encodeV1({ state: s, time: t, mutationId: id }));
        expect(decoded).toEqual({ state: s, time: t, mutationId: id });
        expect('data' in decoded).toBe(false);
      }),
    );
  });

  it('at one write time, REMOVED beats HIDDEN beats ACTIVE whatever the edge times, data and mutation ids', () => {
    fc.assert(
      fc.property(linkValue, linkValue, (a, b) => {
        fc.pre(a.state !== b.state);
        const order = Math.sign(compareBytes(encodeLinkValue(a), encodeLinkValue(b)));
        expect(order).toBe(Math.sign(RANK[a.state] - RANK[b.state]));
      }),
    );
  });

  it('in one state, the greater edge time wins a tie, then the data, then the mutation id', () => {
    fc.assert(
      fc.property(linkValue, time, (a, otherTime) => {
        fc.pre(otherTime !== a.time);
        const b: LinkValue = { ...a, time: otherTime, mutationId: a.mutationId + 'z' };
        expect(compareBytes(encodeLinkValue(a), encodeLinkValue(b)) > 0).toBe(a.time > otherTime);
      }),
    );
  });

  it.each([
    ['empty', [], /at least 10 bytes/],
    ['too short (v1)', [0x01, 0x01, 0, 0], /at least 10 bytes/],
    ['too short (v2)', [0x02, 0x01, 0, 0, 0, 0, 0, 0, 0, 1], /at least 11 bytes/],
    ['unknown version', [0x03, 0x01, 0, 0, 0, 0, 0, 0, 0, 1, 0], /unknown version 0x03/],
    ['unknown v1 state', [0x01, 0x03, 0, 0, 0, 0, 0, 0, 0, 1], /unknown state 0x03/],
    ['unknown v2 state', [0x02, 0x04, 0, 0, 0, 0, 0, 0, 0, 1, 0], /unknown state 0x04/],
    ['data past the end', [0x02, 0x01, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0xaa], /data length 3 runs past/],
    ['bad UTF-8 id', [0x02, 0x01, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0xff], /not valid UTF-8/],
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

  it('rejects a time outside u64, a lone surrogate and oversized data on encode', () => {
    expect(() => encodeLinkValue({ state: 'ACTIVE', time: -1n, mutationId: 'm' })).toThrow(/unsigned 64-bit/);
    expect(() => encodeLinkValue({ state: 'ACTIVE', time: 1n, mutationId: '\ud800' })).toThrow(/lone UTF-16 surrogate/);
    expect(() => encodeLinkValue({ state: 'ACTIVE', time: 1n, mutationId: 'm', data: new Uint8Array(256) })).toThrow(/data is 256 bytes, at most 255/);
  });
});
