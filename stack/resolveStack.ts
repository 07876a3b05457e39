import { endpointsFromEnv, STACK_ENV_NAMES, type StackEndpoints } from './endpoints.ts';
import type { Log } from './localStack.ts';

export interface ResolvedStack {
  readonly endpoints: StackEndpoints;
  /** Stops whatever this resolution started; external clusters and pre-running stacks are left alone. */
  readonly release: () => Promise<void>;
}

export interface ResolveOptions {
  readonly log: Log;
  readonly env?: NodeJS.ProcessEnv;
  /** Leave servers this call started running after `release` (interactive commands). */
  readonly keepRunning?: boolean;
  /** The config's `cluster` section, resolved: used as is, never replaced by env or a local stack. */
  readonly configured?: StackEndpoints;
}

/**
 * Finds a stack in this order: the config's `cluster` section (then the env variables below
 * must be unset: setting both is an error naming both) → explicit env (KAFKA_BROKERS, SCHEMA_REGISTRY_URL,
 * CASSANDRA_CONTACT_POINTS, CASSANDRA_LOCAL_DC) → a reachable Docker engine via
 * testcontainers → the local JVM stack from Maven Central. `EDGESTREAM_STACK=local|docker`
 * forces one. Never returns without a stack: failure throws with the reason.
 */
export async function resolveStack(opts: ResolveOptions): Promise<ResolvedStack> {
  const env = opts.env ?? process.env;
  if (opts.configured) {
    const alsoSet = [...STACK_ENV_NAMES, 'CASSANDRA_LOCAL_DC', 'EDGESTREAM_STACK'].filter((name) => env[name] !== undefined && env[name] !== '');
    if (alsoSet.length > 0) {
      throw new Error(`config cluster and the environment's ${alsoSet.join(', ')} are both set: say where the cluster is once (unset ${alsoSet.join(', ')}, or remove cluster from the config)`);
    }
    opts.log(`using the cluster from the config (Kafka ${opts.configured.kafkaBrokers.join(',')})`);
    return { endpoints: opts.configured, release: async () => {} };
  }
  const fromEnv = endpointsFromEnv(env);
  if (fromEnv) {
    opts.log(`using the external cluster from the environment (Kafka ${fromEnv.kafkaBrokers.join(',')})`);
    return { endpoints: fromEnv, release: async () => {} };
  }
  const forced = env['EDGESTREAM_STACK'];
  if (forced !== undefined && forced !== '' && forced !== 'local' && forced !== 'docker') {
    throw new Error(`EDGESTREAM_STACK: expected "local" or "docker", got "${forced}"`);
  }
  // Loaded only here: testcontainers is some 300 modules, which a configured or env cluster never needs.
  const { dockerEngineReachable, startDockerStack } = await import('./dockerStack.ts');
  if (forced === 'docker' || (forced !== 'local' && (await dockerEngineReachable()))) {
    const docker = await startDockerStack(opts.log);
    return { endpoints: docker.endpoints, release: opts.keepRunning ? async () => {} : docker.stop };
  }
  // Loaded only here too: the local stack's servers, which a configured or env cluster never needs.
  const [{ loadStackConfig }, { stackUp, stackDown }, { localEndpoints }] = await Promise.all([import('./stackConfig.ts'), import('./localStack.ts'), import('./localEndpoints.ts')]);
  const config = loadStackConfig(env);
  const up = await stackUp(config, opts.log);
  opts.log(up.started.length
    ? `local JVM stack up in ${(up.elapsedMs / 1000).toFixed(1)} s (started ${up.started.join(', ')})`
    : 'local JVM stack already running');
  const weStartedIt = up.started.length > 0;
  return {
    endpoints: localEndpoints(config),
    release: async () => {
      if (weStartedIt && !opts.keepRunning && env['EDGESTREAM_KEEP_STACK'] !== '1') await stackDown(config, opts.log);
    },
  };
}
