import type { KeyValue, Mutation } from '../../sinks/store/TwoLevelMapStore.ts';
import { clearPartition } from '../contract/ClearingMutation.ts';

/**
 * Collects one event's writes as Mutations grouped per (namespace, id, write
 * time), in the order they were first touched, so the same event always
 * yields the same list. Clears are separate ClearingMutations (deduplicated).
 */
export interface WriteBatch {
  put(namespace: string, id: string, writeTime: bigint, key: Uint8Array, value: Uint8Array): void;
  delete(namespace: string, id: string, writeTime: bigint, key: Uint8Array): void;
  /** Clears the partition, or only its keys starting with `prefix`, at `writeTime`. */
  clear(namespace: string, id: string, writeTime: bigint, prefix?: Uint8Array): void;
  mutations(): Mutation[];
}

interface Group {
  readonly namespace: string;
  readonly id: string;
  readonly writeTime: bigint;
  readonly deletions: Uint8Array[];
  readonly additions: KeyValue[];
}

export function createWriteBatch(): WriteBatch {
  const ordered: (Group | Mutation)[] = [];
  // Per partition, its groups by write time (an event touches few times per partition); clears deduplicated by partition, time and prefix.
  const groups = new Map<string, Group[]>();
  const clears = new Set<string>();
  const groupOf = (namespace: string, id: string, writeTime: bigint): Group => {
    const partition = `${namespace}\u0000${id}`;
    let same = groups.get(partition);
    if (same === undefined) groups.set(partition, (same = []));
    let group = same.find((g) => g.writeTime === writeTime);
    if (group === undefined) {
      same.push((group = { namespace, id, writeTime, deletions: [], additions: [] }));
      ordered.push(group);
    }
    return group;
  };
  return {
    put: (namespace, id, writeTime, key, value) => void groupOf(namespace, id, writeTime).additions.push({ key, value }),
    delete: (namespace, id, writeTime, key) => void groupOf(namespace, id, writeTime).deletions.push(key),
    clear(namespace, id, writeTime, prefix) {
      const clearKey = `${namespace}\u0000${id}\u0000${writeTime}\u0000${prefix === undefined ? '' : Buffer.from(prefix).toString('hex')}`;
      if (clears.has(clearKey)) return;
      clears.add(clearKey);
      ordered.push(clearPartition(namespace, id, writeTime, prefix));
    },
    mutations: () => ordered.map((m) => Object.freeze({ ...m })),
  };
}
