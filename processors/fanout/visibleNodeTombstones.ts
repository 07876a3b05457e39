import { decodeNodeTombstoneValue } from '../../sinks/namespaces/index.ts';
import type { ReadResults } from '../contract/EventProcessor.ts';
import { nodeTombstoneRead } from './fanOutReads.ts';

/** A node removal as the fan-out sees it: its event time (the cell's write time) and mutation id. */
export interface VisibleNodeTombstone {
  readonly vertex: string;
  readonly time: bigint;
  readonly mutationId: string;
}

/** The node tombstones of an edge's endpoints that the reads found (one per distinct endpoint). */
export function visibleNodeTombstones(reads: ReadResults, src: string, dst: string): VisibleNodeTombstone[] {
  const vertices = src === dst ? [src] : [src, dst];
  return vertices.flatMap((vertex) => {
    const cell = reads.get(nodeTombstoneRead(vertex));
    if (cell === undefined) return [];
    return [{ vertex, time: cell.writeTime, mutationId: decodeNodeTombstoneValue(cell.value).mutationId }];
  });
}
