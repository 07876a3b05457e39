import { describe, expect, it } from 'vitest';
import { encodeDegreeDirtyKey, encodeLinkValue } from '../../sinks/namespaces/index.ts';
import type { RecountLogic } from '../../streams/runtime/recount/createRecounter.ts';
import { degreeRecountLogic } from './degreeRecountLogic.ts';

// Compile-time check that the recounter accepts it (streams/runtime RecountLogic).
const asRecounterLogic: RecountLogic = degreeRecountLogic;

describe('degreeRecountLogic', () => {
  it('walks the 16 degree_dirty shards', () => {
    expect(asRecounterLogic.markNamespace).toBe('degree_dirty');
    expect(degreeRecountLogic.markPartitions).toEqual(Array.from({ length: 16 }, (_, n) => `shard-${n}`));
  });

  it('turns a mark into the link partition to count and the degree cell to write; a malformed mark into undefined', () => {
    const target = degreeRecountLogic.target(encodeDegreeDirtyKey({ edgeType: 'likes', direction: 'in', vertex: 'v' }));
    expect(target?.source).toEqual({ namespace: 'likes_in', id: 'v' });
    expect(target?.result.namespace).toBe('degrees');
    expect(degreeRecountLogic.target(Buffer.from('garbage'))).toBeUndefined();
  });

  it("gives the marks and intents of one target one key prefix, which no other target's marks share", () => {
    const key = (vertex: string, more: object = {}) => encodeDegreeDirtyKey({ edgeType: 'follows', direction: 'in', vertex, ...more });
    const prefix = Buffer.from(degreeRecountLogic.markPrefix(key('star', { writer: 'fan\u0000m-1' })) ?? []);
    const starts = (k: Uint8Array) => Buffer.from(k).subarray(0, prefix.length).equals(prefix);
    expect(Buffer.from(degreeRecountLogic.markPrefix(key('star')) ?? [])).toEqual(prefix);
    expect(starts(key('star', { writer: 'other\u0000m-2', intentStamp: 5n }))).toBe(true);
    expect(starts(key('starlet', { writer: 'fan\u0000m-1' }))).toBe(false);
    expect(starts(encodeDegreeDirtyKey({ edgeType: 'follows', direction: 'out', vertex: 'star', writer: 'fan\u0000m-1' }))).toBe(false);
    expect(degreeRecountLogic.markPrefix(Buffer.from('garbage'))).toBeUndefined();
  });

  it('counts ACTIVE links and stores counts as u64 BE', () => {
    const cell = (state: 'ACTIVE' | 'REMOVED') => ({ key: Buffer.from('p'), value: encodeLinkValue({ state, time: 1n, mutationId: 'm' }), writeTime: 1n });
    expect(degreeRecountLogic.counts(cell('ACTIVE'))).toBe(true);
    expect(degreeRecountLogic.counts(cell('REMOVED'))).toBe(false);
    expect([...degreeRecountLogic.encodeCount(3n)]).toEqual([0, 0, 0, 0, 0, 0, 0, 3]);
  });
});

describe('degreeRecountLogic.mirror', () => {
  const { mirror } = degreeRecountLogic;
  it('names the peer of a mark (its link key), and no peer for a mark written before marks named one', () => {
    expect(Buffer.from(mirror.changedKey(encodeDegreeDirtyKey({ edgeType: 'follows', direction: 'in', vertex: 'star', writer: 'fan\u0000m-1' })) ?? []).toString()).toBe('fan');
    expect(mirror.changedKey(encodeDegreeDirtyKey({ edgeType: 'follows', direction: 'in', vertex: 'star' }))).toBeUndefined();
  });

  it("puts a peer's flag in its bucket, under the target's type and direction", () => {
    const target = degreeRecountLogic.target(encodeDegreeDirtyKey({ edgeType: 'follows', direction: 'in', vertex: 'star' }));
    if (target === undefined) throw new Error('a valid mark');
    const fan = Buffer.from('fan');
    const flag = Buffer.from(mirror.flagKey(target, fan));
    expect(flag.subarray(0, mirror.bucketOf(target, fan).flagsPrefix.length)).toEqual(Buffer.from(mirror.bucketOf(target, fan).flagsPrefix));
    expect(flag.toString().startsWith('follows\u0000in\u0000')).toBe(true);
    expect(mirror.decodeCount(degreeRecountLogic.encodeCount(7n))).toBe(7n);
  });
});
