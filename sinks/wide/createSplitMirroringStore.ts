import { MIRRORED_STATUSES, splitTargetOf } from '../namespaces/index.ts';
import { decorateStore, isStoreError, remapPartialFailure, StoreError, type Mutation, type MutationFailure, type TwoLevelMapStore } from '../store/index.ts';
import { mirrorMutation } from './mirrorMutation.ts';
import type { SplitDirectory } from './createSplitDirectory.ts';

/**
 * The write path's half of splitting mutable partitions (docs/architecture.md
 * §6): a store whose `mutateMany` also writes every mutation of a partition
 * that is PLANNED, SPLITTING, SPLIT or COMPLETED into that split's bucket, in
 * the same call, at the same write time. The fan-out logic never knows; a
 * partition without a split costs one Bloom filter check per mutation.
 *
 * If a directory lookup fails the whole call fails (retriable), rather than
 * write the original alone: a split that missed a write would serve it wrong.
 * For the same reason, while the directory is stale (its reloads keep failing)
 * every mutation of a splittable namespace fails retriably (the runtime retries,
 * then repairs it); the other mutations of the call are written.
 */
export function createSplitMirroringStore(inner: TwoLevelMapStore, opts: { directory: SplitDirectory; namespaces: ReadonlySet<string> }): TwoLevelMapStore {
  const { directory, namespaces } = opts;
  /** The mirror writes, each with the index of the mutation it copies. */
  const mirrorsOf = async (mutations: readonly Mutation[]): Promise<{ extra: Mutation[]; sourceOf: number[] }> => {
    const extra: Mutation[] = [];
    const sourceOf: number[] = [];
    for (const [i, m] of mutations.entries()) {
      if (!namespaces.has(m.namespace) || !directory.mightHaveRecord(m.namespace, m.id)) continue;
      const record = await directory.record(m.namespace, m.id);
      if (record === undefined || !MIRRORED_STATUSES.has(record.status)) continue;
      for (const mirror of mirrorMutation(splitTargetOf(record), m)) {
        extra.push(mirror);
        sourceOf.push(i);
      }
    }
    return { extra, sourceOf };
  };
  /** Writes all but the splittable mutations, then reports those failed (plus whatever else failed). */
  const failClosed = async (mutations: readonly Mutation[], held: readonly number[]): Promise<never> => {
    const stale = new StoreError(
      'unavailable',
      `split directory last loaded ${directory.ageMs()} ms ago, older than ${directory.maxStaleMs} ms: writes of splittable partitions wait for a reload`,
    );
    const failures: MutationFailure[] = [{ mutationIndexes: held, error: stale }];
    const rest = [...mutations.keys()].filter((i) => !held.includes(i));
    if (rest.length > 0) {
      try {
        await inner.mutateMany(rest.map((i) => mutations[i] as Mutation));
      } catch (e) {
        if (!isStoreError(e)) throw e;
        failures.push(...(e.code === 'partial_failure' ? remapPartialFailure(e, rest).failures : [{ mutationIndexes: rest, error: e }]));
      }
    }
    throw new StoreError('partial_failure', stale.message, { failures });
  };
  return decorateStore(inner, {
    async mutateMany(mutations, options) {
      if (!directory.isFresh()) {
        const held = [...mutations.keys()].filter((i) => namespaces.has((mutations[i] as Mutation).namespace));
        if (held.length > 0) return failClosed(mutations, held);
      }
      const { extra, sourceOf } = await mirrorsOf(mutations);
      if (extra.length === 0) return inner.mutateMany(mutations, options);
      try {
        await inner.mutateMany([...mutations, ...extra], options);
      } catch (e) {
        // A failed mirror is a failure of the mutation it copies: the caller repairs that one.
        if (!isStoreError(e) || e.code !== 'partial_failure') throw e;
        throw remapPartialFailure(e, [...mutations.keys(), ...sourceOf]);
      }
    },
  });
}
