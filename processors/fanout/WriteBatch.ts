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
  clear(namespace: string, id: string, writeTime: bigint): void;
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
  // Per partition, its groups and clears by write time (an event touches few times per partition).
  const groups = new Map<string, Group[]>();
  const clears = new Map<string, bigint[]>();
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
    clear(namespace, id, writeTime) {
      const partition = `${namespace}\u0000${id}`;
      let times = clears.get(partition);
      if (times === undefined) clears.set(partition, (times = []));
      if (times.includes(writeTime)) return;
      times.push(writeTime);
      ordered.push(clearPartition(namespace, id, writeTime));
    },
    mutations: () => ordered.map((m) => Object.freeze({ ...m })),
  };
}
