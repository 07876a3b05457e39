import {
  BAG_KEY_MARKER,
  BagDirection,
  decodeBagPropertyKey,
  decodeDegreeDirtyKey,
  decodeLinkValue,
  decodeNodeTombstoneValue,
  decodePropertyValue,
  decodeRecentKey,
  decodeVertexKey,
  exactRecentLink,
} from '../../../sinks/namespaces/index.ts';
import type { Mutation } from '../../../sinks/store/TwoLevelMapStore.ts';

/**
 * One line per cell operation of a fan-out write, decoded with the
 * namespace's codec, so table-driven tests can state exact writes readably:
 *
 *   follows_out[alice] @100 put bob = ACTIVE@100 m1
 *   follows_out_recent[alice] @90 del (90,bob)
 *   follows_out_recent[alice] @100 put (100,bob) = exact ACTIVE@100 m1 (or `= m1`: unverified)
 *   follows_props[alice␀bob] @100 put fwd:since = 2020n
 *   follows_props[alice␀bob] @100 clear fwd
 *
 * Property keys and bag clears name their bag's direction: `fwd` (src is the
 * id's first vertex), `bwd`, `sym` (a symmetric type's shared bag).
 * Unicode NUL in ids renders as ␀. `writeTime` undefined (a follow-up) renders as `@runtime`.
 */
export function renderMutation(m: Omit<Mutation, 'writeTime'> & { readonly writeTime?: bigint }): string[] {
  const head = `${m.namespace}[${m.id.replaceAll('\u0000', '␀')}] @${m.writeTime ?? 'runtime'}`;
  const lines: string[] = [];
  if (m.clear === true) lines.push(`${head} clear${m.clearPrefix === undefined ? '' : ` ${directionName(m.clearPrefix[1])}`}`);
  for (const key of m.deletions) lines.push(`${head} del ${renderKey(m.namespace, key)}`);
  for (const { key, value } of m.additions) lines.push(`${head} put ${renderKey(m.namespace, key)} = ${renderValue(m.namespace, value)}`);
  return lines;
}

export const renderMutations = (ms: readonly Parameters<typeof renderMutation>[0][]): string[] => ms.flatMap(renderMutation);

function renderKey(namespace: string, key: Uint8Array): string {
  if (namespace.endsWith('_recent')) {
    const { time, peer } = decodeRecentKey(key);
    return `(${time},${peer})`;
  }
  if (namespace === 'degree_dirty') {
    const mark = decodeDegreeDirtyKey(key);
    return `${mark.edgeType}/${mark.direction}/${mark.vertex}${mark.writer === undefined ? '' : ` by ${mark.writer.replace('\u0000', '/')}`}`;
  }
  if (namespace === 'node_tombstones') return "''";
  if (namespace.endsWith('_props')) {
    if (key[0] !== BAG_KEY_MARKER) return `legacy:${Buffer.from(key).toString('utf8')}`; // the old shared-bag layout
    const { direction, name } = decodeBagPropertyKey(key);
    return `${directionName(direction)}:${name}`;
  }
  return decodeVertexKey(key);
}

function directionName(direction: number | undefined): string {
  if (direction === BagDirection.FORWARD) return 'fwd';
  if (direction === BagDirection.BACKWARD) return 'bwd';
  return direction === BagDirection.SYMMETRIC ? 'sym' : `direction ${direction}?`;
}

function renderValue(namespace: string, value: Uint8Array): string {
  if (namespace.endsWith('_out') || namespace.endsWith('_in')) {
    const link = decodeLinkValue(value);
    return `${link.state}@${link.time} ${link.mutationId}`;
  }
  if (namespace.endsWith('_props')) return renderProperty(decodePropertyValue(value));
  if (namespace === 'node_tombstones') {
    const t = decodeNodeTombstoneValue(value);
    return `${t.mutationId} written ${t.writtenAtMicros}`;
  }
  if (namespace === 'degree_dirty') return value.length === 0 ? "''" : 'non-empty!';
  if (namespace.endsWith('_recent')) {
    const exact = exactRecentLink(value);
    if (exact !== undefined) return `exact ${exact.state}@${exact.time} ${exact.mutationId}`;
  }
  return Buffer.from(value).toString('utf8');
}

function renderProperty(v: ReturnType<typeof decodePropertyValue>): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
  return String(v);
}
