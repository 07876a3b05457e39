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
  const entries = new Map<string, Group | Mutation>();
  const groupOf = (namespace: string, id: string, writeTime: bigint): Group => {
    const key = `w\u0000${namespace}\u0000${id}\u0000${writeTime}`;
    let group = entries.get(key) as Group | undefined;
    if (group === undefined) entries.set(key, (group = { namespace, id, writeTime, deletions: [], additions: [] }));
    return group;
  };
  return {
    put: (namespace, id, writeTime, key, value) => void groupOf(namespace, id, writeTime).additions.push({ key, value }),
    delete: (namespace, id, writeTime, key) => void groupOf(namespace, id, writeTime).deletions.push(key),
    clear(namespace, id, writeTime) {
      const key = `c\u0000${namespace}\u0000${id}\u0000${writeTime}`;
      if (!entries.has(key)) entries.set(key, clearPartition(namespace, id, writeTime));
    },
    mutations: () => [...entries.values()].map((m) => Object.freeze({ ...m })),
  };
}
