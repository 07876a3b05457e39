import { z } from 'zod';
import { consolidateMutations } from '../store/consolidateMutations.ts';
import { prefixEnd } from '../store/prefixEnd.ts';
import { cutPage, prefixSliceQuery, resolveSlice } from '../store/resolveSlice.ts';
import { oneReplicaGroup } from '../store/replicaGroups.ts';
import { StoreError } from '../store/StoreError.ts';
import { namespacesSchema, parseConfig, resolveNamespaces, valueLimitsSchema, type NamespaceSettings } from '../store/storeConfig.ts';
import type { Cell, Mutation, NamespaceStore, SlicePage, SliceQuery, StoreFeatures, TwoLevelMapStore } from '../store/TwoLevelMapStore.ts';
import { assertCount, assertId, assertKey, assertLimit, assertMutation, assertValue, assertWriteTime } from '../store/validateArgs.ts';
import { MemoryPartition } from './MemoryPartition.ts';

/**
 * The in-memory two-level map: a sorted map per (namespace, id) with
 * Cassandra's last-write-wins rules, point and range tombstones included, so
 * pure logic above the port can be tested without a cluster and behave as it
 * will on Cassandra. Values are never chunked (everything is one cell, so
 * the equal-write-time tie rule "greater bytes win" holds for all sizes).
 */
const memoryStoreConfigSchema = z.strictObject({ namespaces: namespacesSchema, ...valueLimitsSchema.shape });

export type MemoryStoreConfig = z.input<typeof memoryStoreConfigSchema>;

export function createMemoryStore(config: MemoryStoreConfig): TwoLevelMapStore {
  const parsed = parseConfig(memoryStoreConfigSchema, config, 'memory store config');
  const settings = new Map(resolveNamespaces(parsed.namespaces, parsed).map((s) => [s.name, s]));
  const data = new Map<string, Map<string, MemoryPartition>>();
  const bound = new Map<string, NamespaceStore>();
  let closed = false;

  const ensureOpen = (): void => {
    if (closed) throw new StoreError('closed', 'memory store is closed');
  };
  const settingsOf = (name: string): NamespaceSettings => {
    const s = settings.get(name);
    if (s === undefined) throw new StoreError('unknown_namespace', `namespace '${name}' is not configured`);
    return s;
  };
  const partitionOf = (namespace: string, id: string): MemoryPartition => {
    let byId = data.get(namespace);
    if (byId === undefined) data.set(namespace, (byId = new Map()));
    let partition = byId.get(id);
    if (partition === undefined) byId.set(id, (partition = new MemoryPartition()));
    return partition;
  };
  const ctx: MemoryContext = { ensureOpen, partitionOf };
  // No closed check here: each call of the namespace checks (see TwoLevelMapStore.namespace).
  const namespaceOf = (name: string): NamespaceStore => {
    const s = settingsOf(name);
    let store = bound.get(name);
    if (store === undefined) bound.set(name, (store = createMemoryNamespace(s, ctx)));
    return store;
  };

  return {
    features: featuresOf(parsed.maxValueBytes),
    namespaces: [...settings.keys()],
    init: async () => ensureOpen(),
    replicaGroups: oneReplicaGroup,
    namespace: namespaceOf,
    values: namespaceOf, // nothing to save by leaving write times out
    async mutateMany(mutations: readonly Mutation[]) {
      ensureOpen();
      for (const m of mutations) assertMutation(m, settingsOf(m.namespace).maxValueBytes);
      for (const group of consolidateMutations(mutations)) {
        const partition = partitionOf(group.namespace, group.id);
        // A clear is a range tombstone over the whole key space (a Cassandra partition tombstone).
        for (const writeTime of group.clears) partition.deleteRange({ writeTime });
        for (const { prefix, writeTime } of group.prefixClears) {
          const to = prefixEnd(prefix);
          partition.deleteRange({ from: prefix.slice(), ...(to === undefined ? {} : { to }), writeTime });
        }
        for (const d of group.deletions) partition.write(d.key.slice(), { kind: 'tombstone', writeTime: d.writeTime });
        for (const a of group.additions) {
          partition.write(a.key.slice(), { kind: 'value', writeTime: a.writeTime, value: a.value.slice() });
        }
      }
    },
    async close() {
      closed = true;
    },
  };
}

interface MemoryContext {
  readonly ensureOpen: () => void;
  readonly partitionOf: (namespace: string, id: string) => MemoryPartition;
}

function featuresOf(maxValueBytes: number): StoreFeatures {
  return Object.freeze({
    orderedKeys: true,
    writeTimestamps: true,
    batchMutation: true,
    rangeDeletes: true,
    chunking: false,
    maxInlineValueBytes: maxValueBytes,
    maxValueBytes,
    persistent: false,
  });
}

function createMemoryNamespace(s: NamespaceSettings, ctx: MemoryContext): NamespaceStore {
  const partition = (id: string): MemoryPartition => ctx.partitionOf(s.name, id);
  const slice = async (id: string, query: SliceQuery): Promise<SlicePage> => {
    ctx.ensureOpen();
    assertId(id);
    const r = resolveSlice(query);
    if (r.empty) return { cells: [] };
    const page = cutPage(partition(id).slice(r.start, r.end, r.order, r.limit + 1), r);
    return { cells: page.rows.map(copyCell), ...(page.pageState === undefined ? {} : { pageState: page.pageState }) };
  };
  const newest = (id: string, n: number): Cell[] => partition(id).slice(new Uint8Array(0), undefined, 'desc', n);
  const checkWrite = (id: string, writeTime: bigint): void => {
    ctx.ensureOpen();
    assertId(id);
    assertWriteTime(writeTime);
  };

  return {
    namespace: s.name,
    features: featuresOf(s.maxValueBytes),
    async put(id, key, value, writeTime) {
      checkWrite(id, writeTime);
      assertKey(key);
      assertValue(value, s.maxValueBytes);
      partition(id).write(key.slice(), { kind: 'value', writeTime, value: value.slice() });
    },
    async delete(id, key, writeTime) {
      checkWrite(id, writeTime);
      assertKey(key);
      partition(id).write(key.slice(), { kind: 'tombstone', writeTime });
    },
    async get(id, key) {
      ctx.ensureOpen();
      assertId(id);
      assertKey(key);
      const cell = partition(id).get(key);
      return cell === undefined ? undefined : copyCell(cell);
    },
    async getCells(cells) {
      ctx.ensureOpen();
      for (const { id, key } of cells) {
        assertId(id);
        assertKey(key);
      }
      return cells.map(({ id, key }) => {
        const cell = partition(id).get(key);
        return cell === undefined ? undefined : copyCell(cell);
      });
    },
    async getKeys(id, keys) {
      ctx.ensureOpen();
      assertId(id);
      for (const key of keys) assertKey(key);
      return keys.map((key) => {
        const cell = partition(id).get(key);
        return cell === undefined ? undefined : copyCell(cell);
      });
    },
    async sliceMany(ids, { limit }) {
      ctx.ensureOpen();
      for (const id of ids) assertId(id);
      assertLimit(limit);
      return Promise.all(ids.map((id) => slice(id, { limit })));
    },
    slice,
    scanPrefix: async (id, prefix, query) => {
      assertKey(prefix);
      return slice(id, prefixSliceQuery(prefix, query));
    },
    async deleteNewest(id, n, writeTime) {
      checkWrite(id, writeTime);
      assertCount(n);
      if (n === 0) return 0;
      const cells = newest(id, n);
      const boundary = cells[cells.length - 1];
      if (boundary !== undefined) partition(id).deleteRange({ from: boundary.key, writeTime });
      return cells.length;
    },
    async keepNewest(id, n, writeTime) {
      checkWrite(id, writeTime);
      assertCount(n);
      if (n === 0) {
        partition(id).deleteRange({ writeTime });
        return 0;
      }
      const cells = newest(id, n);
      if (cells.length < n) return cells.length;
      partition(id).deleteRange({ to: (cells[n - 1] as Cell).key, writeTime });
      return n;
    },
  };
}

function copyCell(cell: Cell): Cell {
  return { key: cell.key.slice(), value: cell.value.slice(), writeTime: cell.writeTime };
}
