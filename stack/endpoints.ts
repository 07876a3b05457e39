import { z } from 'zod';
import type { ClientSecurity } from './clientSecurity.ts';

/** Where the Kafka, schema-registry and Cassandra endpoints came from (`config`: the config's `cluster` section). */
export type StackSource = 'config' | 'env' | 'docker' | 'local';

/** The addresses every client in edgestream connects to. */
export interface StackEndpoints {
  readonly source: StackSource;
  readonly kafkaBrokers: readonly string[];
  readonly schemaRegistryUrl: string;
  readonly cassandraContactPoints: readonly string[];
  readonly cassandraLocalDc: string;
  /** TLS and credentials (a configured cluster only); absent: plain connections without credentials. */
  readonly security?: ClientSecurity;
  /** The config's `cluster.kafka.client` (a configured cluster only); absent: EDGESTREAM_KAFKA_CLIENT, else kafkajs. */
  readonly kafkaClient?: 'kafkajs' | 'platformatic';
}

const hostPort = z
  .string()
  .regex(/^[^\s:,]+:\d{1,5}$/, 'expected host:port');

const csvHostPorts = z
  .string()
  .transform((s) => s.split(',').map((p) => p.trim()).filter(Boolean))
  .pipe(z.array(hostPort).min(1, 'expected at least one host:port'));

const envSchema = z.object({
  KAFKA_BROKERS: csvHostPorts,
  SCHEMA_REGISTRY_URL: z.url({ protocol: /^https?$/ }),
  CASSANDRA_CONTACT_POINTS: csvHostPorts,
  CASSANDRA_LOCAL_DC: z.string().min(1).default('datacenter1'),
});

/** The env names that select an external cluster. */
export const STACK_ENV_NAMES = ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'CASSANDRA_CONTACT_POINTS'] as const;

/**
 * Reads an explicitly configured external cluster from the environment.
 * Returns undefined when none of the variables is set; throws naming the field
 * when some are set but one is missing or malformed (a half-configured cluster
 * must never silently fall back to a local one).
 */
export function endpointsFromEnv(env: NodeJS.ProcessEnv): StackEndpoints | undefined {
  if (!STACK_ENV_NAMES.some((name) => env[name] !== undefined && env[name] !== '')) return undefined;
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = String(first?.path[0] ?? 'environment');
    throw new Error(
      `external cluster misconfigured: ${field}: ${first?.message ?? 'invalid'} ` +
        `(set all of ${STACK_ENV_NAMES.join(', ')}, or none to use the local stack)`,
    );
  }
  const e = parsed.data;
  return {
    source: 'env',
    kafkaBrokers: e.KAFKA_BROKERS,
    schemaRegistryUrl: e.SCHEMA_REGISTRY_URL,
    cassandraContactPoints: e.CASSANDRA_CONTACT_POINTS,
    cassandraLocalDc: e.CASSANDRA_LOCAL_DC,
  };
}

/** The env form of endpoints, for child processes and `export` lines. */
export function endpointsToEnv(e: StackEndpoints): Record<string, string> {
  return {
    KAFKA_BROKERS: e.kafkaBrokers.join(','),
    SCHEMA_REGISTRY_URL: e.schemaRegistryUrl,
    CASSANDRA_CONTACT_POINTS: e.cassandraContactPoints.join(','),
    CASSANDRA_LOCAL_DC: e.cassandraLocalDc,
  };
}
