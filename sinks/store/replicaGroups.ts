/** Partition ids that live on the same replica set (the same Cassandra token range owners). */
export interface ReplicaGroup {
  /** Names the replica set (e.g. sorted host addresses); undefined when the backend does not know. */
  readonly replicas: string | undefined;
  /** In their input order. */
  readonly ids: readonly string[];
}

/**
 * Groups `ids` by `replicaSetOf(id)`, first-seen order of groups and of ids
 * within a group, each id once. Ids whose replica set is unknown form one
 * group of their own (`replicas: undefined`), so a caller still bounds them.
 */
export function groupByReplicaSet(ids: readonly string[], replicaSetOf: (id: string) => string | undefined): ReplicaGroup[] {
  const groups = new Map<string | undefined, string[]>();
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const replicas = replicaSetOf(id);
    const group = groups.get(replicas);
    if (group === undefined) groups.set(replicas, [id]);
    else group.push(id);
  }
  return [...groups].map(([replicas, members]) => ({ replicas, ids: members }));
}

/** The grouping of a backend with no token map (the memory store): every id on one "replica set". */
export function oneReplicaGroup(ids: readonly string[]): ReplicaGroup[] {
  return ids.length === 0 ? [] : [{ replicas: 'local', ids: [...new Set(ids)] }];
}
