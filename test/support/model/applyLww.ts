import {
  encodeLinkValue,
  encodePropertyValue,
  LinkState,
  type LinkDirection,
  type LinkValue,
  type PropertyValue,
} from '../../../sinks/namespaces/index.ts';
import { compareBytes } from '../../../sinks/store/compareBytes.ts';
import type { EdgeMutation } from '../../../schemas/generated/EdgeMutation.ts';
import { bagLabel } from './graphLines.ts';

/**
 * The reference model of the write path: the graph a list of EdgeMutations
 * must converge to, whatever the arrival order, duplicates and replays,
 * computed directly from the documented semantics (docs/architecture.md §5),
 * with no store, no reads and no cascade.
 *
 * Links, per (type, src, dst) with at least one link event (ADD_EDGE,
 * REMOVE_EDGE, HIDE_EDGE, UNHIDE_EDGE): the last write wins among
 *   - each ADD_EDGE, UNHIDE_EDGE → ACTIVE  at its time, its edge time (edge_time, else its time), data, mutation id
 *   - each HIDE_EDGE             → HIDDEN  at its time, its edge time, data, mutation id
 *   - each REMOVE_EDGE           → REMOVED at its time (= its edge time), its mutation id
 *   - each REMOVE_NODE of src or dst → REMOVED at its time, its mutation id
 * ordered by write (event) time, then by the greater LinkValue bytes
 * (REMOVED > HIDDEN > ACTIVE, then edge time, data, mutation id).
 *
 * Property bags, per (type, src, dst) for a directed type and per (type,
 * {a, b}) for a symmetric one, per name: the last write wins among sets
 * (ADD_EDGE properties, SET_PROPERTIES) and deletes (REMOVE_PROPERTIES keys),
 * a delete winning a tie and between sets the greater encoded bytes; the
 * winner is hidden when the bag was cleared at a time >= its own. Clears are
 * REMOVE_PROPERTIES with no keys and every REMOVE_NODE of an endpoint of an
 * edge with a link event (clearing that link's bag: its direction's, or the
 * shared one of a symmetric type). A bag whose edge only ever saw property
 * events is not cleared by node removals: no link records that edge, so
 * nothing could find it.
 *
 * Degrees: ACTIVE links per (type, direction, vertex), for every vertex of an
 * edge with a link event (zero included). Newest-first lists: a vertex's
 * ACTIVE links per direction, by edge time descending, then peer UTF-8
 * ascending (HIDDEN and REMOVED links are in neither).
 * Node tombstones: per vertex the latest REMOVE_NODE, then greater mutation id.
 */
export interface ModelGraph {
  /** Key `type ␀ src ␀ dst`. */
  readonly links: ReadonlyMap<string, ModelLink>;
  /** Key `type ␀ bagLabel(src, dst, symmetric)`; only bags with visible properties. */
  readonly props: ReadonlyMap<string, ReadonlyMap<string, ModelProperty>>;
  /** Key `type ␀ out|in ␀ vertex`. */
  readonly degrees: ReadonlyMap<string, bigint>;
  /** Key `type ␀ out|in ␀ vertex`; only non-empty lists. */
  readonly newestFirst: ReadonlyMap<string, readonly ModelNeighbour[]>;
  readonly nodeTombstones: ReadonlyMap<string, { readonly time: bigint; readonly mutationId: string }>;
}

export interface ModelLink {
  readonly edgeType: string;
  readonly src: string;
  readonly dst: string;
  readonly value: LinkValue;
  /** The event time of the winning write: the cell's write time. */
  readonly writeTime: bigint;
}

export interface ModelProperty {
  readonly value: PropertyValue;
  readonly writeTime: bigint;
}

export interface ModelNeighbour {
  readonly peer: string;
  readonly time: bigint;
  readonly mutationId: string;
  readonly data?: Uint8Array;
}

export const modelKey = (...parts: string[]): string => parts.join('\u0000');

/** `symmetricTypes`: edge types with one bag for both directions (config `edgeTypes[].symmetric`). */
export function applyLww(events: readonly EdgeMutation[], symmetricTypes: readonly string[] = []): ModelGraph {
  const removals = events.filter((e) => e.op === 'REMOVE_NODE');
  const links = modelLinks(events, removals);
  return {
    links,
    props: modelProps(events, removals, links, new Set(symmetricTypes)),
    ...modelDegreesAndLists(links),
    nodeTombstones: modelNodeTombstones(removals),
  };
}

function modelLinks(events: readonly EdgeMutation[], removals: readonly EdgeMutation[]): Map<string, ModelLink> {
  const links = new Map<string, ModelLink>();
  const offer = (edgeType: string, src: string, dst: string, writeTime: bigint, value: LinkValue): void => {
    const key = modelKey(edgeType, src, dst);
    const current = links.get(key);
    if (current === undefined || linkBeats(writeTime, value, current)) links.set(key, { edgeType, src, dst, value, writeTime });
  };
  for (const e of events) {
    const state = LINK_STATE_OF_OP[e.op];
    if (state === undefined) continue;
    const edgeTime = state === LinkState.REMOVED ? e.event_time : (e.edge_time ?? e.event_time);
    const data = state !== LinkState.REMOVED && e.data != null && e.data.length > 0 ? { data: Uint8Array.from(e.data) } : {};
    offer(e.edge_type, e.src, e.dst, e.event_time, { state, time: edgeTime, mutationId: e.mutation_id, ...data });
  }
  for (const link of [...links.values()]) {
    for (const r of removals) {
      if (r.src !== link.src && r.src !== link.dst) continue;
      offer(link.edgeType, link.src, link.dst, r.event_time, { state: LinkState.REMOVED, time: r.event_time, mutationId: r.mutation_id });
    }
  }
  return links;
}

const LINK_STATE_OF_OP: Readonly<Partial<Record<EdgeMutation['op'], LinkState>>> = {
  ADD_EDGE: LinkState.ACTIVE,
  UNHIDE_EDGE: LinkState.ACTIVE,
  HIDE_EDGE: LinkState.HIDDEN,
  REMOVE_EDGE: LinkState.REMOVED,
};

function linkBeats(writeTime: bigint, value: LinkValue, current: ModelLink): boolean {
  if (writeTime !== current.writeTime) return writeTime > current.writeTime;
  return compareBytes(encodeLinkValue(value), encodeLinkValue(current.value)) > 0;
}

type PropertyWrite = { readonly kind: 'set'; readonly value: PropertyValue; readonly writeTime: bigint } | { readonly kind: 'delete'; readonly writeTime: bigint };

function modelProps(
  events: readonly EdgeMutation[],
  removals: readonly EdgeMutation[],
  links: ReadonlyMap<string, ModelLink>,
  symmetricTypes: ReadonlySet<string>,
): Map<string, Map<string, ModelProperty>> {
  const winners = new Map<string, Map<string, PropertyWrite>>();
  const clears = new Map<string, bigint[]>();
  const bagKey = (edgeType: string, src: string, dst: string): string => modelKey(edgeType, bagLabel(src, dst, symmetricTypes.has(edgeType)));
  const offer = (bag: string, name: string, write: PropertyWrite): void => {
    const byName = winners.get(bag) ?? new Map<string, PropertyWrite>();
    winners.set(bag, byName);
    const current = byName.get(name);
    if (current === undefined || propertyWriteBeats(write, current)) byName.set(name, write);
  };
  const clear = (bag: string, time: bigint): void => void clears.set(bag, [...(clears.get(bag) ?? []), time]);

  for (const e of events) {
    const bag = bagKey(e.edge_type, e.src, e.dst);
    if (e.op === 'ADD_EDGE' || e.op === 'SET_PROPERTIES') {
      for (const [name, value] of Object.entries(e.properties)) offer(bag, name, { kind: 'set', value, writeTime: e.event_time });
    } else if (e.op === 'REMOVE_PROPERTIES') {
      if (e.property_keys.length === 0) clear(bag, e.event_time);
      for (const name of e.property_keys) offer(bag, name, { kind: 'delete', writeTime: e.event_time });
    }
  }
  for (const link of links.values()) {
    for (const r of removals) if (r.src === link.src || r.src === link.dst) clear(bagKey(link.edgeType, link.src, link.dst), r.event_time);
  }

  const props = new Map<string, Map<string, ModelProperty>>();
  for (const [bag, byName] of winners) {
    const clearedUpTo = (clears.get(bag) ?? []).reduce((max, t) => (t > max ? t : max), -1n);
    const visible = new Map<string, ModelProperty>();
    for (const [name, w] of byName) if (w.kind === 'set' && w.writeTime > clearedUpTo) visible.set(name, { value: w.value, writeTime: w.writeTime });
    if (visible.size > 0) props.set(bag, visible);
  }
  return props;
}

function propertyWriteBeats(a: PropertyWrite, b: PropertyWrite): boolean {
  if (a.writeTime !== b.writeTime) return a.writeTime > b.writeTime;
  if (a.kind !== b.kind) return a.kind === 'delete';
  if (a.kind === 'delete' || b.kind === 'delete') return false;
  return compareBytes(encodePropertyValue(a.value), encodePropertyValue(b.value)) > 0;
}

function modelDegreesAndLists(links: ReadonlyMap<string, ModelLink>): Pick<ModelGraph, 'degrees' | 'newestFirst'> {
  const degrees = new Map<string, bigint>();
  const lists = new Map<string, ModelNeighbour[]>();
  const note = (edgeType: string, direction: LinkDirection, vertex: string, peer: string, value: LinkValue): void => {
    const key = modelKey(edgeType, direction, vertex);
    degrees.set(key, (degrees.get(key) ?? 0n) + (value.state === LinkState.ACTIVE ? 1n : 0n));
    const data = value.data === undefined ? {} : { data: value.data };
    if (value.state === LinkState.ACTIVE) lists.set(key, [...(lists.get(key) ?? []), { peer, time: value.time, mutationId: value.mutationId, ...data }]);
  };
  for (const { edgeType, src, dst, value } of links.values()) {
    note(edgeType, 'out', src, dst, value);
    note(edgeType, 'in', dst, src, value);
  }
  for (const list of lists.values()) {
    list.sort((x, y) => (x.time !== y.time ? (x.time > y.time ? -1 : 1) : compareBytes(Buffer.from(x.peer), Buffer.from(y.peer))));
  }
  return { degrees, newestFirst: lists };
}

function modelNodeTombstones(removals: readonly EdgeMutation[]): Map<string, { time: bigint; mutationId: string }> {
  const tombstones = new Map<string, { time: bigint; mutationId: string }>();
  for (const r of removals) {
    const current = tombstones.get(r.src);
    const newer =
      current === undefined ||
      r.event_time > current.time ||
      (r.event_time === current.time && compareBytes(Buffer.from(r.mutation_id), Buffer.from(current.mutationId)) > 0);
    if (newer) tombstones.set(r.src, { time: r.event_time, mutationId: r.mutation_id });
  }
  return tombstones;
}
