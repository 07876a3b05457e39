import { EdgeOp, type EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { EventProcessor, ProcessorOutput } from '../contract/EventProcessor.ts';
import type { Mutation } from '../../sinks/store/TwoLevelMapStore.ts';
import { degreeDirtyMarks } from './degreeDirtyMarks.ts';
import { fanOutReads, fanOutRoutingKey } from './fanOutReads.ts';
import { linkOpWrites } from './linkOpWrites.ts';
import { nodeRemovalWrites } from './nodeRemovalWrites.ts';
import { propertyOpWrites } from './propertyOpWrites.ts';
import { createWriteBatch } from './WriteBatch.ts';
import { FAN_OUT_PROCESSOR_NAME } from '../processorNames.ts';

export interface FanOutConfig {
  /** `symmetric` (default false): one property bag for both directions (config `edgeTypes[].symmetric`). */
  readonly edgeTypes: readonly { readonly name: string; readonly symmetric?: boolean }[];
}

/**
 * The fan-out stage: one validated EdgeMutation → the writes of
 * docs/architecture.md §5 into the link, recent-index, property and node
 * tombstone namespaces, all at the event's own time (or a node removal's),
 * plus degree_dirty marks for link ops (intents in the first wave, marks as
 * follow-ups: see degreeDirtyMarks). No emits: the REMOVE_NODE
 * cascade is a separate runner (processors/cascade).
 *
 * A link op's writes come in ordered waves (`laterWaves`): a link after the
 * deletion of the entry it supersedes, the op's own entries after its links
 * (see linkOpWrites).
 *
 * `writes` may contain ClearingMutations (`clear: true`, with the bag's key
 * prefix as `clearPrefix`), executed natively by `mutateMany`.
 *
 * Pure and deterministic in (event, reads, ctx); the wall clock only enters
 * REMOVE_NODE's tombstone value and the stamp of a link op's degree intents. Throws on an edge type the config does not
 * declare: validation rejects those, so reaching here is a bug.
 */
export function createFanOutProcessor(config: FanOutConfig): EventProcessor<EdgeMutation> {
  const edgeTypes = new Set(config.edgeTypes.map((t) => t.name));
  const symmetricTypes = new Set(config.edgeTypes.filter((t) => t.symmetric === true).map((t) => t.name));
  return {
    name: FAN_OUT_PROCESSOR_NAME,
    reads: fanOutReads,
    routingKey: fanOutRoutingKey,
    process(event, reads, ctx): ProcessorOutput {
      const batch = createWriteBatch();
      if (event.op !== EdgeOp.REMOVE_NODE && !edgeTypes.has(event.edge_type)) {
        throw new Error(`fan-out: edge type '${event.edge_type}' is not configured (validation should have rejected ${event.mutation_id})`);
      }
      switch (event.op) {
        case EdgeOp.ADD_EDGE:
        case EdgeOp.REMOVE_EDGE:
        case EdgeOp.HIDE_EDGE:
        case EdgeOp.UNHIDE_EDGE: {
          const waves = [batch, createWriteBatch(), createWriteBatch()] as const;
          const soleWriter = ctx.soleWriter === true;
          const outCountMayChange = linkOpWrites(event, reads, symmetricTypes.has(event.edge_type), soleWriter, waves);
          // The degree intents go in the first wave: a link cell that lands has a mark even if the follow-ups never run.
          // The in side is always marked: the op reads only the forward cell, and the reverse one may differ (a dead-lettered op's).
          const marks = degreeDirtyMarks(event, ctx.wallClockMicros, !soleWriter || outCountMayChange);
          return { writes: [...marks.intents, ...batch.mutations()], laterWaves: nonEmptyPrefix(waves.slice(1).map((w) => w.mutations())), followUps: marks.followUps, emits: [] };
        }
        case EdgeOp.SET_PROPERTIES:
        case EdgeOp.REMOVE_PROPERTIES:
          propertyOpWrites(event, symmetricTypes.has(event.edge_type), batch);
          return { writes: batch.mutations(), followUps: [], emits: [] };
        case EdgeOp.REMOVE_NODE:
          nodeRemovalWrites(event, ctx.wallClockMicros, batch);
          return { writes: batch.mutations(), followUps: [], emits: [] };
        default:
          return assertNever(event.op);
      }
    },
  };
}

/** The waves up to the last one that writes anything: an ADD with nothing to supersede costs the chunk no third round trip. */
function nonEmptyPrefix(waves: Mutation[][]): Mutation[][] {
  let end = waves.length;
  while (end > 0 && waves[end - 1]?.length === 0) end--;
  return waves.slice(0, end);
}

function assertNever(op: never): never {
  throw new Error(`fan-out: unknown op ${String(op)}`);
}
