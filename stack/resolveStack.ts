import { endpointsFromEnv, type StackEndpoints } from './endpoints.ts';

export interface ResolvedStack {
  readonly endpoints: StackEndpoints;
  /** Stops whatever this resolution started (a no-op for external clusters). */
  readonly release: () => Promise<void>;
}

// TEMPORARY: env or the default local ports; replaced by the full resolution chain.
export async function resolveStack(_opts: { log: (line: string) => void }): Promise<ResolvedStack> {
  const fromEnv = endpointsFromEnv(process.env);
  const endpoints: StackEndpoints = fromEnv ?? {
    source: 'local',
    kafkaBrokers: ['127.0.0.1:19092'],
    schemaRegistryUrl: 'http://127.0.0.1:18081/apis/ccompat/v7',
    cassandraContactPoints: ['127.0.0.1:19042'],
    cassandraLocalDc: 'datacenter1',
  };
  return { endpoints, release: async () => {} };
}
