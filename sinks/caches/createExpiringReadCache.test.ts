import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../memory/index.ts';
import { createExpiringReadCache } from './createExpiringReadCache.ts';

const k = (s: string) => new TextEncoder().encode(s);

function setup(ttlMs = 1_000, maxEntries = 100) {
  const inner = createMemoryStore({ namespaces: [{ name: 'tombs', chunking: false }, { name: 'other', chunking: false }] });
  let clock = 0;
  let reads = 0;
  const counting = { ...inner, namespace: (name: string) => {
    const ns = inner.namespace(name);
    return { ...ns, get: (id: string, key: Uint8Array) => { reads++; return ns.get(id, key); } };
  } } as typeof inner;
  const cache = createExpiringReadCache(counting, { namespaces: ['tombs'], ttlMs, maxEntries, nowMs: () => clock });
  return { inner, cache, advance: (ms: number) => (clock += ms), reads: () => reads };
}

describe('createExpiringReadCache', () => {
  it('serves a cached absence and a cached value until the ttl passes, then reads again', async () => {
    const { inner, cache, advance, reads } = setup();
    expect(await cache.namespace('tombs').get('v', k(''))).toBeUndefined();
    await inner.namespace('tombs').put('v', k(''), k('x'), 5n); // another process writes
    expect(await cache.namespace('tombs').get('v', k(''))).toBeUndefined(); // still the cached absence
    expect(reads()).toBe(1);
    advance(1_001);
    expect((await cache.namespace('tombs').get('v', k('')))?.writeTime).toBe(5n);
    expect(reads()).toBe(2);
    expect(cache.cacheStats()).toEqual({ lookups: 3, hits: 1, entries: 1 });
  });

  it('counts a getCells lookup per cell, hits being the fresh ones, and answers each cell in order', async () => {
    const { cache } = setup();
    await cache.mutateMany([{ namespace: 'tombs', id: 'c', writeTime: 7n, deletions: [], additions: [{ key: k('x'), value: k('1') }] }]);
    const at = (id: string, key = '') => ({ id, key: k(key) });
    await cache.namespace('tombs').getCells([at('a'), at('b')]);
    const answers = await cache.namespace('tombs').getCells([at('a'), at('c', 'x'), at('c'), at('c', 'x')]);
    expect(answers.map((c) => c?.writeTime)).toEqual([undefined, 7n, undefined, 7n]);
    expect(cache.cacheStats()).toEqual({ lookups: 6, hits: 1, entries: 4 });
  });

  it('drops the entries of partitions written through it, so its own writes are seen at once', async () => {
    const { cache } = setup();
    expect(await cache.namespace('tombs').get('v', k(''))).toBeUndefined();
    await cache.mutateMany([{ namespace: 'tombs', id: 'v', writeTime: 7n, deletions: [], additions: [{ key: k(''), value: k('x') }] }]);
    expect((await cache.namespace('tombs').get('v', k('')))?.writeTime).toBe(7n);
  });

  it('passes other namespaces straight through', async () => {
    const { inner, cache, reads } = setup();
    expect(await cache.namespace('other').get('v', k('a'))).toBeUndefined();
    await inner.namespace('other').put('v', k('a'), k('x'), 1n);
    expect((await cache.namespace('other').get('v', k('a')))?.writeTime).toBe(1n);
    expect(reads()).toBe(2);
  });

  it('evicts the oldest entry beyond maxEntries', async () => {
    const { cache, reads } = setup(10_000, 2);
    for (const id of ['a', 'b', 'c']) await cache.namespace('tombs').get(id, k(''));
    await cache.namespace('tombs').get('c', k('')); // cached
    expect(reads()).toBe(3);
    await cache.namespace('tombs').get('a', k('')); // evicted: read again
    expect(reads()).toBe(4);
  });
});
