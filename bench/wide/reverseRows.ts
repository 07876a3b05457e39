import { allWrites, createFanOutProcessor } from '../../processors/index.ts';
import type { ReadResults } from '../../processors/contract/EventProcessor.ts';
import type { EdgeMutation } from '../../schemas/index.ts';
import { encodeLinkValue, forwardLinkNamespace, reverseLinkNamespace, reverseRecentNamespace, type LinkValue } from '../../sinks/namespaces/index.ts';
import type { Mutation } from '../../sinks/store/index.ts';

/**
 * The writes the real fan-out processor makes for one event, given what the
 * store would hold: no node tombstones, and for a REMOVE_EDGE the forward
 * link the bench wrote for the follow (`forwardLink`), so the processor
 * deletes the superseded `T_in_recent` entry (a Cassandra row tombstone)
 * exactly as the pipeline would. With `keep`, only those namespaces' writes.
 */
export function createFanOutRows(edgeType: string, keep?: ReadonlySet<string>) {
  const fanOut = createFanOutProcessor({ edgeTypes: [{ name: edgeType }] });
  const forwardNs = forwardLinkNamespace(edgeType);
  return (event: EdgeMutation, forwardLink?: LinkValue): readonly Mutation[] => {
    const reads: ReadResults = {
      get: (r) => (r.namespace === forwardNs && forwardLink !== undefined ? { key: r.key, value: encodeLinkValue(forwardLink), writeTime: forwardLink.time } : undefined),
    };
    const writes = allWrites(fanOut.process(event, reads, { wallClockMicros: event.event_time, soleWriter: true }));
    return keep === undefined ? writes : writes.filter((m) => keep.has(m.namespace));
  };
}

/**
 * The fan-out's writes restricted to the reverse namespaces (`T_in`,
 * `T_in_recent`): the only ones a celebrity's in-neighbour reads touch. The
 * forward link, forward recent index and degree marks the pipeline would also
 * write are left out to save load time (the bench says so in its output).
 */
export const createReverseRows = (edgeType: string) => createFanOutRows(edgeType, new Set([reverseLinkNamespace(edgeType), reverseRecentNamespace(edgeType)]));
