import { consistencySchema, type Consistency, type Replication } from '../../schemas/config/cassandraConfig.ts';

/**
 * How durably a bench run keeps what it writes: the replication of its keyspaces (the
 * pipeline's and the raw driver's), the consistency levels of edgestream's store and of the
 * raw driver, and the replicas and min.insync.replicas of its topics. The two sides of every
 * raw-driver comparison run at the same durability, so their ratio stays like-for-like.
 */
export interface BenchDurability {
  readonly topics: { readonly replicationFactor: number; readonly minInsyncReplicas: number };
  readonly cassandra: { readonly replication: Replication; readonly consistency: Consistency };
}

/** The single-node stack's: RF 1, the store's default levels (LOCAL_QUORUM, LOCAL_SERIAL), one replica per topic. */
export const SINGLE_NODE_DURABILITY: BenchDurability = {
  topics: { replicationFactor: 1, minInsyncReplicas: 1 },
  cassandra: { replication: { class: 'SimpleStrategy', replicationFactor: 1 }, consistency: consistencySchema.parse({}) },
};

/** "NetworkTopologyStrategy {datacenter1: 3}, LOCAL_QUORUM writes, LOCAL_QUORUM reads, LOCAL_SERIAL; topics RF 3, min.insync.replicas 2". */
export function describeDurability(d: BenchDurability): string {
  const r = d.cassandra.replication;
  const replication = r.class === 'SimpleStrategy' ? `SimpleStrategy RF ${r.replicationFactor}` : `NetworkTopologyStrategy {${Object.entries(r.dataCenters).map(([dc, n]) => `${dc}: ${n}`).join(', ')}}`;
  const c = d.cassandra.consistency;
  return `${replication}, ${c.writes} writes, ${c.reads} reads, ${c.serial}; topics RF ${d.topics.replicationFactor}, min.insync.replicas ${d.topics.minInsyncReplicas}`;
}
