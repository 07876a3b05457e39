import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { NODE_TOMBSTONES_NAMESPACE, type WideRowRecord } from '../../../sinks/namespaces/index.ts';
import { isStoreError, type Mutation } from '../../../sinks/store/index.ts';
import { createSplitDirectory, createWideRowRepository } from '../../../sinks/wide/index.ts';
import { faultyStore } from '../testing/faultyStore.ts';
import { composeProcessorStore, isProcessorStore } from './composeProcessorStore.ts';
import { createLinkCache } from './linkCache.ts';

const LINKS = 'follows_out';
const BUCKETS = 'follows_out_split';
const NAMESPACES = [LINKS, BUCKETS, NODE_TOMBSTONES_NAMESPACE, 'wide_rows', 'wide_row_checkpoints', 'wide_rows_log'].map((name) => ({ name, chunking: false }));
const splitting: WideRowRecord = {
  namespace: LINKS, partitionId: 'celeb', status: 'SPLITTING', generation: 1, attempts: 1, splitNamespace: BUCKETS, strategy: 'hash',
  buckets: 2, boundaries: [], rows: 0, bytes: 0, checksum: '', updatedAt: 1,
};
const follow = (writeTime: bigint): Mutation => ({ namespace: LINKS, id: 'celeb', writeTime, deletions: [], additions: [{ key: Uint8Array.of(7), value: Uint8Array.of(1) }] });
const tombstone: Mutation = { namespace: NODE_TOMBSTONES_NAMESPACE, id: 'n1', writeTime: 5n, deletions: [], additions: [{ key: Uint8Array.of(0), value: Uint8Array.of(1) }] };

/** The stack edgestream's fan-out writes through, over a base store that records (and can fail) each call; `celeb` is being split. */
async function stack() {
  const memory = createMemoryStore({ namespaces: NAMESPACES });
  const repository = createWideRowRepository(memory); // the directory reads the store beside the stack, as in createEdgePipeline
  await repository.put(splitting);
  const directory = createSplitDirectory({ repository, namespaces: [LINKS], refreshMs: 60_000, maxStaleMs: 180_000, falsePositiveRate: 0.01 });
  await directory.refresh();
  const base = faultyStore(memory);
  const composed = composeProcessorStore({
    store: base.store,
    splitMirror: { directory, namespaces: new Set([LINKS]) },
    tombstoneCache: { namespaces: [NODE_TOMBSTONES_NAMESPACE], ttlMs: 60_000, maxEntries: 100, nowMs: () => 0 },
    linkCache: createLinkCache({ entries: 100 }),
  });
  return { base, top: composed.top, composed };
}

const namespacesOf = (call: readonly Mutation[] | undefined) => (call ?? []).map((m) => m.namespace).sort();

describe('composeProcessorStore (link cache → tombstone cache → split mirror → store)', () => {
  it('mirrors a write of a partition being split; a duplicate the link cache proves redundant writes neither the original nor the bucket', async () => {
    const { base, top } = await stack();
    await top.mutateMany([follow(10n)]);
    expect(namespacesOf(base.calls[0])).toEqual([LINKS, BUCKETS]);
    await top.mutateMany([follow(10n)]); // a replay
    // With the mirror above the link cache, the bucket copy of the replay would still be written here.
    expect(base.calls).toHaveLength(1);
  });

  it('caches a link only once its bucket copy landed too: after a failed copy the retry writes the original again', async () => {
    const { base, top } = await stack();
    base.failWrites((m, call) => (call === 0 && m.namespace === BUCKETS ? 'timeout' : undefined));
    const failed = await top.mutateMany([follow(10n)]).catch((e: unknown) => e);
    // The mirror reports its failed copy as a failure of the mutation it copies (the runtime repairs that event).
    expect(isStoreError(failed) && failed.code === 'partial_failure' ? failed.failures.flatMap((f) => f.mutationIndexes) : failed).toEqual([0]);
    await top.mutateMany([follow(10n)]); // the repair
    // With the link cache under the mirror, it would have recorded the original, and only the copy would go here.
    expect(namespacesOf(base.calls[1])).toEqual([LINKS, BUCKETS]);
  });

  it("serves node tombstones from the cache, and this process's own tombstone write at once", async () => {
    const { base, top, composed } = await stack();
    const read = () => top.namespace(NODE_TOMBSTONES_NAMESPACE).get('n1', Uint8Array.of(0));
    expect(await read()).toBeUndefined();
    expect(await read()).toBeUndefined();
    expect(base.readCalls).toEqual([['get', NODE_TOMBSTONES_NAMESPACE, 'n1']]);
    await top.mutateMany([tombstone]);
    expect((await read())?.writeTime).toBe(5n);
    expect(composed.tombstoneCacheStats?.()).toMatchObject({ lookups: 3, hits: 1 });
  });

  it('is the store itself without layers', () => {
    const store = createMemoryStore({ namespaces: NAMESPACES });
    const composed = composeProcessorStore({ store });
    expect(composed.top).toBe(store);
    expect(isProcessorStore(composed)).toBe(true);
    expect(isProcessorStore(store)).toBe(false);
  });
});
