import { z } from 'zod';

/**
 * The Cassandra vocabulary shared by the edgestream config (`cassandra` section) and the
 * store's own config (sinks/cassandra): keyspace replication and consistency levels per
 * operation class. Declared once so the two cannot drift apart.
 */

const DATA_CENTER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

// EACH_QUORUM is left out: Cassandra refuses it for reads.
export const CONSISTENCY_LEVELS = ['ONE', 'LOCAL_ONE', 'QUORUM', 'LOCAL_QUORUM', 'ALL'] as const;
export type ConsistencyLevel = (typeof CONSISTENCY_LEVELS)[number];

/** The level of the Paxos phase of a lightweight transaction (a conditional `IF` statement). */
export const SERIAL_CONSISTENCY_LEVELS = ['SERIAL', 'LOCAL_SERIAL'] as const;
export type SerialConsistencyLevel = (typeof SERIAL_CONSISTENCY_LEVELS)[number];

export const replicationSchema = z.discriminatedUnion('class', [
  z.strictObject({ class: z.literal('SimpleStrategy'), replicationFactor: z.int().min(1).max(20).default(1) }),
  z.strictObject({
    class: z.literal('NetworkTopologyStrategy'),
    dataCenters: z
      .record(z.string().regex(DATA_CENTER_PATTERN, 'data-center names are letters, digits, _ . -'), z.int().min(1).max(20))
      .refine((dcs) => Object.keys(dcs).length > 0, 'at least one data center'),
  }),
]);
export type Replication = z.output<typeof replicationSchema>;

/**
 * Levels per operation class (docs/architecture.md §4 "Consistency levels"): `writes` for every
 * data write, `reads` for every data read, `serial` for the Paxos phase of a lightweight
 * transaction. The defaults are today's single level and quorum-safe at any replication.
 */
export const consistencySchema = z.strictObject({
  writes: z.enum(CONSISTENCY_LEVELS).default('LOCAL_QUORUM'),
  reads: z.enum(CONSISTENCY_LEVELS).default('LOCAL_QUORUM'),
  serial: z.enum(SERIAL_CONSISTENCY_LEVELS).default('LOCAL_SERIAL'),
});
export type Consistency = z.output<typeof consistencySchema>;

/** Replicas a keyspace keeps in all (SimpleStrategy: its factor; NetworkTopologyStrategy: the sum over data centers). */
export function totalReplicas(replication: Replication): number {
  return replication.class === 'SimpleStrategy' ? replication.replicationFactor : Object.values(replication.dataCenters).reduce((a, b) => a + b, 0);
}
