import os from 'node:os';
import path from 'node:path';

/** Pinned server versions: the ones verified to run on this project's CI machine. */
export const STACK_VERSIONS = {
  kafka: '3.9.2',
  cassandra: '5.0.9',
  apicurio: '3.3.3',
} as const;

/** Everything the local JVM stack needs to know; built once by `loadStackConfig`. */
export interface StackConfig {
  /** Per-checkout runtime state: configs, data dirs, logs, pid files. */
  readonly runDir: string;
  /** Downloaded server artifacts, shared between checkouts and reused across runs. */
  readonly cacheDir: string;
  readonly ports: {
    readonly kafka: number;
    readonly kafkaController: number;
    readonly cassandraCql: number;
    readonly cassandraStorage: number;
    readonly registryHttp: number;
    readonly registryManagement: number;
  };
  /** Max heap per server, in MiB: small, because all three share 2 cores with the tests. */
  readonly heapMiB: { readonly kafka: number; readonly cassandra: number; readonly registry: number };
  readonly readyTimeoutMs: number;
}

/** All within 19042–19093, so offsets that are multiples of 100 never collide with another stack. */
const BASE_PORTS = {
  kafka: 19092,
  kafkaController: 19093,
  cassandraCql: 19042,
  cassandraStorage: 19070,
  registryHttp: 19081,
  registryManagement: 19082,
} as const;

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name}: expected a non-negative integer, got "${raw}"`);
  return n;
}

/**
 * The local stack's config. `EDGESTREAM_STACK_PORT_OFFSET` shifts every port (so two
 * stacks can coexist); `EDGESTREAM_STACK_DIR` and `EDGESTREAM_CACHE_DIR` move state and downloads.
 */
export function loadStackConfig(env: NodeJS.ProcessEnv = process.env, repoRoot = process.cwd()): StackConfig {
  const offset = intFromEnv(env, 'EDGESTREAM_STACK_PORT_OFFSET', 0);
  const ports = Object.fromEntries(
    Object.entries(BASE_PORTS).map(([name, port]) => [name, port + offset]),
  ) as unknown as StackConfig['ports'];
  for (const [name, port] of Object.entries(ports)) {
    if (port > 65535) throw new Error(`EDGESTREAM_STACK_PORT_OFFSET: ${name} port ${port} exceeds 65535`);
  }
  const cacheHome = env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
  return {
    runDir: path.resolve(env['EDGESTREAM_STACK_DIR'] || path.join(repoRoot, '.stack')),
    cacheDir: path.resolve(env['EDGESTREAM_CACHE_DIR'] || path.join(cacheHome, 'edgestream')),
    ports,
    heapMiB: {
      kafka: intFromEnv(env, 'EDGESTREAM_KAFKA_HEAP_MB', 512),
      cassandra: intFromEnv(env, 'EDGESTREAM_CASSANDRA_HEAP_MB', 1024),
      registry: intFromEnv(env, 'EDGESTREAM_REGISTRY_HEAP_MB', 384),
    },
    readyTimeoutMs: intFromEnv(env, 'EDGESTREAM_STACK_READY_TIMEOUT_MS', 180_000),
  };
}
