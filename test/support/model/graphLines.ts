import { BagDirection, decodeBagPropertyKey, decodePropertyValue, EDGE_ID_SEPARATOR, type LinkValue, type PropertyValue } from '../../../sinks/namespaces/index.ts';
import type { Cell } from '../../../sinks/store/TwoLevelMapStore.ts';
import type { ModelGraph } from './applyLww.ts';

/**
 * One text line per fact of a graph, sorted, so the model and the store can
 * be compared with a readable diff. Both sides render through these helpers.
 */
export const linkLine = (direction: 'out' | 'in', edgeType: string, src: string, dst: string, v: LinkValue, writeTime: bigint): string =>
  `link-${direction} ${edgeType} ${src}->${dst} ${v.state}@${v.time} ${v.mutationId}${dataSuffix(v.data)} wt=${writeTime}`;

const dataSuffix = (data: Uint8Array | undefined): string => (data === undefined ? '' : ` data=0x${Buffer.from(data).toString('hex')}`);

/** A property bag's name in lines: `src->dst` for a directed type, `a<->b` (UTF-8 order) for a symmetric one. */
export function bagLabel(src: string, dst: string, symmetric: boolean): string {
  if (!symmetric) return `${src}->${dst}`;
  const [a, b] = Buffer.compare(Buffer.from(src), Buffer.from(dst)) <= 0 ? [src, dst] : [dst, src];
  return `${a}<->${b}`;
}

export const propertyLine = (edgeType: string, bag: string, name: string, value: PropertyValue, writeTime: bigint): string =>
  `props ${edgeType} ${bag} ${name}=${renderValue(value)} wt=${writeTime}`;

/** The line of one `T_props` cell of partition `min ␀ max`: its bag from the key's direction byte. */
export function propertyCellLine(edgeType: string, partitionId: string, cell: Cell): string {
  const [first = '', second = ''] = partitionId.split(EDGE_ID_SEPARATOR);
  const { direction, name } = decodeBagPropertyKey(cell.key);
  const bag = direction === BagDirection.SYMMETRIC ? bagLabel(first, second, true) : direction === BagDirection.FORWARD ? `${first}->${second}` : `${second}->${first}`;
  return propertyLine(edgeType, bag, name, decodePropertyValue(cell.value), cell.writeTime);
}

export const degreeLine = (edgeType: string, direction: string, vertex: string, count: bigint): string => `degree ${edgeType} ${direction} ${vertex} = ${count}`;

/**
 * The degree lines of a graph: nonzero counts only. A count of 0 and no count
 * cell read the same (reads/createEdgeReader), and whether a vertex whose links
 * never counted has a cell depends on which ops marked it, not on the graph.
 */
export const degreeLines = (edgeType: string, direction: string, vertex: string, count: bigint): string[] => (count === 0n ? [] : [degreeLine(edgeType, direction, vertex, count)]);

export const newestFirstLine = (
  edgeType: string,
  direction: string,
  vertex: string,
  list: readonly { peer: string; time: bigint; mutationId: string; data?: Uint8Array }[],
): string => `newest ${edgeType} ${direction} ${vertex}: ${list.map((n) => `${n.peer}@${n.time}(${n.mutationId}${dataSuffix(n.data)})`).join(', ')}`;

export const tombstoneLine = (vertex: string, time: bigint, mutationId: string): string => `tombstone ${vertex} @${time} ${mutationId}`;

export function modelGraphLines(graph: ModelGraph): string[] {
  const lines: string[] = [];
  for (const { edgeType, src, dst, value, writeTime } of graph.links.values()) {
    lines.push(linkLine('out', edgeType, src, dst, value, writeTime), linkLine('in', edgeType, src, dst, value, writeTime));
  }
  for (const [bag, byName] of graph.props) {
    const [edgeType = '', ...rest] = bag.split('\u0000');
    for (const [name, p] of byName) lines.push(propertyLine(edgeType, rest.join('\u0000'), name, p.value, p.writeTime));
  }
  for (const [key, count] of graph.degrees) {
    const [edgeType = '', direction = '', vertex = ''] = key.split('\u0000');
    lines.push(...degreeLines(edgeType, direction, vertex, count));
  }
  for (const [key, list] of graph.newestFirst) {
    const [edgeType = '', direction = '', vertex = ''] = key.split('\u0000');
    lines.push(newestFirstLine(edgeType, direction, vertex, list));
  }
  for (const [vertex, t] of graph.nodeTombstones) lines.push(tombstoneLine(vertex, t.time, t.mutationId));
  return lines.sort();
}

function renderValue(v: PropertyValue): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
  if (typeof v === 'number') return `${Object.is(v, -0) ? '-0' : v}d`;
  return String(v);
}
