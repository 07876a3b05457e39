import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { KafkaPort } from '../streams/kafka/index.ts';
import type { EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import { knownSchemas } from '../schemas/index.ts';
import type { TwoLevelMapStore } from '../sinks/store/TwoLevelMapStore.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';
import { classifyRegistryFailure } from '../streams/serde/classifyRegistryFailure.ts';
import { subjectFor } from '../streams/serde/index.ts';
import { topicName } from '../streams/topics/index.ts';

/** The three outside systems, as an error names them. */
export type Connection = 'Kafka' | 'Cassandra' | 'schema registry';

/** One outside system refused (credentials, TLS) or did not answer: says which, where, why and which config fields reach it. */
export class ConnectionRefusedError extends Error {
  override readonly name = 'ConnectionRefusedError';
  readonly connection: Connection;

  constructor(connection: Connection, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.connection = connection;
  }
}

export interface ConnectionCheckDeps {
  readonly kafka: () => Promise<KafkaPort>;
  readonly registry: () => Promise<SchemaRegistry>;
  readonly store: () => Promise<TwoLevelMapStore>;
  readonly config: EdgestreamConfig;
  readonly endpoints: StackEndpoints;
}

/** How long one probe may take before it counts as not answering. */
const PROBE_TIMEOUT_MS = 15_000;

/** A URL as it may be printed: user info (a password in it) removed. */
function printableUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

async function probe(connection: Connection, where: string, fields: string, run: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([run(), deadline]);
  } catch (e) {
    throw new ConnectionRefusedError(connection, `${connection} (${where}) refused the connection or did not answer: ${(e as Error).message} — check ${fields}`, { cause: e });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reaches Kafka, the schema registry and Cassandra once, before a long-running command starts:
 * a wrong password, CA or address then fails in seconds with an error naming the connection,
 * instead of being retried by consumers that never get in (Kafka) or by a decoder that treats
 * a refused registry as an outage (every message waits). All three are tried; every failure is named.
 */
export async function checkConnections(deps: ConnectionCheckDeps): Promise<void> {
  const { endpoints, config } = deps;
  const probes = [
    probe('Kafka', endpoints.kafkaBrokers.join(','), 'cluster.kafka (brokers, tls, sasl)', async () => {
      const admin = (await deps.kafka()).admin({ retries: 0 });
      try {
        await admin.connect();
        await admin.describeCluster();
      } finally {
        await admin.disconnect().catch(() => {});
      }
    }),
    probe('schema registry', printableUrl(endpoints.schemaRegistryUrl), 'cluster.schemaRegistry (url, tls, auth)', async () => {
      try {
        await (await deps.registry()).getLatestSchemaId(subjectFor(topicName(config.topics.prefix, 'edge-mutations'), knownSchemas.EdgeMutation));
      } catch (e) {
        // An unknown subject (before init) is an answer from a registry that let us in.
        if (classifyRegistryFailure(e) !== 'NOT_FOUND') throw e;
      }
    }),
    probe('Cassandra', endpoints.cassandraContactPoints.join(','), 'cluster.cassandra (contactPoints, localDataCenter, tls, auth)', () => deps.store()),
  ];
  const failures = (await Promise.allSettled(probes)).flatMap((r) => (r.status === 'rejected' ? [r.reason as ConnectionRefusedError] : []));
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new ConnectionRefusedError(failures[0]!.connection, failures.map((f) => f.message).join('\n'), { cause: failures });
}
