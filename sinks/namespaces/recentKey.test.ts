import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytes } from '../store/compareBytes.ts';
import { encodeVertexKey } from './vertexKey.ts';
import { decodeRecentKey, encodeRecentKey, invertTime, MAX_TIME, recentKeyPeerBytes } from './recentKey.ts';

const time = fc.bigInt({ min: 0n, max: MAX_TIME });
const peer = fc.string({ unit: 'grapheme', maxLength: 12 });

describe('recentKey', () => {
  it('is invTime(t) as u64 BE followed by the peer', () => {
    expect([...encodeRecentKey(MAX_TIME, 'b')]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0x62]);
    expect([...encodeRecentKey(0n, '')]).toEqual([0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  });

  it('round-trips', () => {
    fc.assert(
      fc.property(time, peer, (t, p) => {
        expect(decodeRecentKey(encodeRecentKey(t, p))).toEqual({ time: t, peer: p });
      }),
    );
  });

  it('holds the peer\'s link key after the time (recentKeyPeerBytes), and refuses what decoding refuses', () => {
    fc.assert(
      fc.property(time, peer, (t, p) => {
        expect(recentKeyPeerBytes(encodeRecentKey(t, p))).toEqual(encodeVertexKey(p));
      }),
    );
    expect(() => recentKeyPeerBytes(Uint8Array.from([0, 1, 2]))).toThrow(/at least 8 bytes/);
    expect(() => recentKeyPeerBytes(Uint8Array.from([0x80, 0, 0, 0, 0, 0, 0, 0, 0x61]))).toThrow(/above 2\^63-1/);
  });

  it('sorts newer times first under unsigned lexicographic order, whatever the peers', () => {
    fc.assert(
      fc.property(time, time, peer, peer, (t1, t2, p1, p2) => {
        fc.pre(t1 !== t2);
        const order = Math.sign(compareBytes(encodeRecentKey(t1, p1), encodeRecentKey(t2, p2)));
        expect(order).toBe(t1 > t2 ? -1 : 1);
      }),
    );
  });

  it('orders links of one time by the peer bytes', () => {
    fc.assert(
      fc.property(time, peer, peer, (t, p1, p2) => {
        const byPeer = Math.sign(compareBytes(Buffer.from(p1), Buffer.from(p2)));
        expect(Math.sign(compareBytes(encodeRecentKey(t, p1), encodeRecentKey(t, p2)))).toBe(byPeer);
      }),
    );
  });

  it('rejects times outside [0, 2^63-1] and keys shorter than 8 bytes', () => {
    expect(() => invertTime(-1n)).toThrow(/outside/);
    expect(() => encodeRecentKey(MAX_TIME + 1n, 'x')).toThrow(/outside/);
    expect(() => decodeRecentKey(Uint8Array.of(1, 2, 3))).toThrow(/recentKey: needs at least 8 bytes/);
    expect(() => decodeRecentKey(Uint8Array.of(0x80, 0, 0, 0, 0, 0, 0, 0))).toThrow(/above 2\^63-1/);
  });
});
