import { decodeNodeTombstoneValue, linkNamespace, type LinkDirection } from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { Emit, ReadRequest } from '../contract/EventProcessor.ts';
import { nodeTombstoneRead } from '../fanout/fanOutReads.ts';
import { cascadeEventsForPage } from './cascadeEventsForPage.ts';
import { NODE_REMOVAL_CASCADE_NAME } from '../processorNames.ts';

export interface NodeRemovalCascadeOptions {
  readonly edgeTypes: readonly { readonly name: string }[];
  readonly maxMutationIdBytes: number;
  /**
   * How long the node tombstone must have been visible before the cascade
   * pages (wall clock in the tombstone value). Must exceed the runtime's
   * write-retry budget: an ADD that read "no tombstone" has landed by then,
   * or sits in the repair topic, whose re-processing reads the tombstone.
   */
  readonly cascadeSettleMs: number;
}

export type CascadeGate =
  | { readonly kind: 'go' }
  | { readonly kind: 'wait'; readonly untilMs: number }
  | { readonly kind: 'absent'; readonly recheckAtMs: number; readonly what: string };

/** The REMOVE_NODE cascade as the cascade runner (streams/runtime createCascadeRunner, its `CascadeLogic`) consumes it. */
export interface NodeRemovalCascade {
  readonly name: string;
  plan(event: EdgeMutation): { readonly gate: ReadRequest; readonly sources: readonly { readonly namespace: string; readonly id: string }[] } | undefined;
  gate(event: EdgeMutation, gateCell: Cell | undefined, ctx: { readonly wallClockMicros: bigint }): CascadeGate;
  emitsForPage(event: EdgeMutation, gateCell: Cell, source: { readonly namespace: string; readonly id: string }, cells: readonly Cell[]): readonly Emit[];
}

/**
 * REMOVE_NODE v → page `T_out[v]` and `T_in[v]` of every edge type once v's
 * node tombstone (at >= the event's time) has settled, and publish
 * cascadeEventsForPage's events on the input topic keyed by their src.
 * Pure; the runner reads, pages, waits, publishes and commits.
 */
export function createNodeRemovalCascade(options: NodeRemovalCascadeOptions): NodeRemovalCascade {
  const sourceOf = new Map<string, { edgeType: string; direction: LinkDirection }>();
  for (const { name } of options.edgeTypes) {
    for (const direction of ['out', 'in'] as const) sourceOf.set(linkNamespace(name, direction), { edgeType: name, direction });
  }
  return {
    name: NODE_REMOVAL_CASCADE_NAME,
    plan(event) {
      if (event.op !== EdgeOp.REMOVE_NODE) return undefined;
      return { gate: nodeTombstoneRead(event.src), sources: [...sourceOf.keys()].map((namespace) => ({ namespace, id: event.src })) };
    },
    gate(event, gateCell, ctx) {
      const nowMs = Number(ctx.wallClockMicros / 1000n);
      // Not written yet (the fan-out lags) or lost: the runner tells these apart by the fan-out's offsets.
      if (gateCell === undefined || gateCell.writeTime < event.event_time) {
        return { kind: 'absent', recheckAtMs: nowMs + options.cascadeSettleMs, what: `node tombstone of '${event.src}' at >= ${event.event_time}` };
      }
      const readyAtMs = Number(decodeNodeTombstoneValue(gateCell.value).writtenAtMicros / 1000n) + options.cascadeSettleMs;
      return nowMs >= readyAtMs ? { kind: 'go' } : { kind: 'wait', untilMs: readyAtMs };
    },
    emitsForPage(event, _gateCell, source, cells) {
      const known = sourceOf.get(source.namespace);
      if (known === undefined) throw new Error(`cascade: '${source.namespace}' is not a link namespace of a configured edge type`);
      return cascadeEventsForPage(event, known.edgeType, known.direction, cells, options).map(
        (e): Emit<EdgeMutation> => ({ topic: 'edge-mutations', key: e.src, value: e }),
      );
    },
  };
}
