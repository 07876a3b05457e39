import { createFanOutProcessor, writeWaves } from '../../processors/index.ts';
import type { EdgeMutation } from '../../schemas/index.ts';
import { forwardLinkNamespace } from '../../sinks/namespaces/index.ts';
import { compareBytes } from '../../sinks/store/compareBytes.ts';
import type { Cell, Mutation } from '../../sinks/store/TwoLevelMapStore.ts';

const fanOutByType = new Map<string, ReturnType<typeof createFanOutProcessor>>();

/**
 * The write waves the real fan-out processor (pure) produces for a link op as
 * its input partition's sole writer, given the current forward link
 * `T_out[src][dst]` it read (undefined: none) and no visible node tombstone.
 * Follow-ups (degree marks) are not writes of the event and are left out.
 * Benches use it so a raw writer writes exactly the cells the pipeline writes.
 */
export function fanOutWaves(event: EdgeMutation, currentLink: Cell | undefined): readonly (readonly Mutation[])[] {
  let fanOut = fanOutByType.get(event.edge_type);
  if (!fanOut) fanOutByType.set(event.edge_type, (fanOut = createFanOutProcessor({ edgeTypes: [{ name: event.edge_type }] })));
  const forward = forwardLinkNamespace(event.edge_type);
  const reads = { get: (r: { namespace: string; id: string }) => (r.namespace === forward && r.id === event.src ? currentLink : undefined) };
  return writeWaves(fanOut.process(event, reads, { wallClockMicros: event.event_time, soleWriter: true }));
}

/** The forward link cell `waves` write (what a later op of the same edge reads back), if any. */
export function writtenForwardLink(event: EdgeMutation, waves: readonly (readonly Mutation[])[]): Cell | undefined {
  const forward = forwardLinkNamespace(event.edge_type);
  for (const m of waves.flat()) {
    if (m.namespace !== forward || m.id !== event.src) continue;
    const a = m.additions[0];
    if (a !== undefined) return { key: a.key, value: a.value, writeTime: m.writeTime };
  }
  return undefined;
}

/** The cell a store keeps of two writes of one key: the later write time, then the greater bytes. */
export const newerCell = (a: Cell | undefined, b: Cell | undefined): Cell | undefined =>
  a === undefined ? b : b === undefined ? a : a.writeTime !== b.writeTime ? (a.writeTime > b.writeTime ? a : b) : compareBytes(a.value, b.value) >= 0 ? a : b;
