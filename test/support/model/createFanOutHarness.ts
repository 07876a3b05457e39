import { createFanOutProcessor } from '../../../processors/fanout/createFanOutProcessor.ts';
import { cascadeEventsForPage } from '../../../processors/cascade/cascadeEventsForPage.ts';
import { countActiveLinks } from '../../../processors/counts/countActiveLinks.ts';
import { recountTargetOf } from '../../../processors/counts/recountTargetOf.ts';
import { createMemoryStore } from '../../../sinks/memory/createMemoryStore.ts';
import {
  DEGREE_DIRTY_NAMESPACE,
  degreeDirtyShards,
  edgestreamNamespaces,
  encodeDegreeCount,
  encodeRecentKey,
  encodeUnverifiedRecentValue,
  forwardRecentNamespace,
  linkNamespace,
  reverseRecentNamespace,
} from '../../../sinks/namespaces/index.ts';
import type { Cell, TwoLevelMapStore } from '../../../sinks/store/TwoLevelMapStore.ts';
import { writeWaves, type ReadRequest } from '../../../processors/contract/EventProcessor.ts';
import type { EdgeMutation } from '../../../schemas/generated/EdgeMutation.ts';
import { readPartition } from './readStoreGraph.ts';
import { readResultsFrom } from './readResultsFrom.ts';

/**
 * The pure twin of the streams runtime, for model-based tests: the fan-out
 * processor over an in-memory store, one event at a time. Reads are served
 * from the store, writes applied with one `mutateMany` per event (clears
 * included, as the runtime does), follow-ups stamped with a fake wall
 * clock that only moves forward. The cascade and the recount are explicit
 * steps so a test decides when they run.
 */
export interface FanOutHarness {
  readonly store: TwoLevelMapStore;
  /** Reads, processes and writes `event`: each write wave in order, then follow-ups. `soleWriter` (default: the harness's) as ProcessContext says. */
  process(event: EdgeMutation, options?: { readonly soleWriter?: boolean }): Promise<void>;
  /**
   * Writes only the `*_recent` entries of an ADD_EDGE (unverified, at its event time): the stale
   * entries a store written before the index was exact holds, which readers must skip. `writeTime`
   * (default the event time) lifts them above the tombstone the exact write path left at that time.
   */
  leaveIndexEntries(add: EdgeMutation, writeTime?: bigint): Promise<void>;
  /** The events the REMOVE_NODE cascade publishes for `removeNode`, paging every link partition of its vertex. */
  cascadeEvents(removeNode: EdgeMutation): Promise<EdgeMutation[]>;
  /** Recounts every marked degree, like the recounter at a quiet moment. */
  recountDegrees(): Promise<void>;
}

export function createFanOutHarness(
  config: { readonly edgeTypes: readonly { readonly name: string; readonly symmetric?: boolean }[]; readonly maxMutationIdBytes?: number },
  /** `soleWriter: false` writes unverified index entries (as a repair, or a store from before exact entries). Default true, as the input's consumer. */
  { soleWriter = true }: { readonly soleWriter?: boolean } = {},
): FanOutHarness {
  const store = createMemoryStore({ namespaces: edgestreamNamespaces(config) });
  const processor = createFanOutProcessor(config);
  let clock = 1_000_000n;
  const tick = (): bigint => (clock += 1n);

  return {
    store,
    async process(event, options = {}) {
      const requests = processor.reads(event);
      const answers = new Map<ReadRequest, Cell | undefined>();
      for (const r of requests) answers.set(r, await store.namespace(r.namespace).get(r.id, r.key));
      const reads = readResultsFrom(requests, (r) => answers.get(r));
      const output = processor.process(event, reads, { wallClockMicros: tick(), soleWriter: options.soleWriter ?? soleWriter });
      for (const wave of writeWaves(output)) await store.mutateMany(wave);
      const stampedAt = tick();
      await store.mutateMany(output.followUps.map((f) => ({ ...f, writeTime: stampedAt })));
    },
    async leaveIndexEntries(add, writeTime = add.event_time) {
      const value = encodeUnverifiedRecentValue(add.mutation_id);
      const time = add.edge_time ?? add.event_time;
      await store.mutateMany([
        { namespace: forwardRecentNamespace(add.edge_type), id: add.src, writeTime, deletions: [], additions: [{ key: encodeRecentKey(time, add.dst), value }] },
        { namespace: reverseRecentNamespace(add.edge_type), id: add.dst, writeTime, deletions: [], additions: [{ key: encodeRecentKey(time, add.src), value }] },
      ]);
    },
    async cascadeEvents(removeNode) {
      const events: EdgeMutation[] = [];
      for (const { name } of config.edgeTypes) {
        for (const direction of ['out', 'in'] as const) {
          const ns = store.namespace(linkNamespace(name, direction));
          let pageState: string | undefined;
          do {
            const page = await ns.slice(removeNode.src, { limit: 2, ...(pageState === undefined ? {} : { pageState }) });
            events.push(...cascadeEventsForPage(removeNode, name, direction, page.cells, { maxMutationIdBytes: config.maxMutationIdBytes ?? 128 }));
            pageState = page.pageState;
          } while (pageState !== undefined);
        }
      }
      return events;
    },
    async recountDegrees() {
      const t0 = tick();
      for (const shard of degreeDirtyShards()) {
        for (const mark of await readPartition(store.namespace(DEGREE_DIRTY_NAMESPACE), shard)) {
          const target = recountTargetOf(mark.key);
          const links = store.namespace(target.source.namespace);
          let count = 0n;
          let pageState: string | undefined;
          do {
            const page = await links.slice(target.source.id, { limit: 2, ...(pageState === undefined ? {} : { pageState }) });
            count = countActiveLinks(page.cells, count);
            pageState = page.pageState;
          } while (pageState !== undefined);
          await store.namespace(target.result.namespace).put(target.result.id, target.result.key, encodeDegreeCount(count), t0);
          await store.namespace(DEGREE_DIRTY_NAMESPACE).delete(shard, mark.key, t0 - 1n);
        }
      }
    },
  };
}
