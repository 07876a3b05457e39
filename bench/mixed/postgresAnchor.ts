import type { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, round } from '../ingest/stats.ts';
import { cpuNote, withCpu } from '../shared/measuredCpu.ts';
import type { MixedBenchArgs } from './args.ts';
import type { LinkGraph } from './linkGraph.ts';
import { findPostgres, startPostgres, type PostgresBinaries, type PostgresServer } from './postgresServer.ts';
import { createPostgresLinkStore, type PostgresLinkStore } from './postgresTarget.ts';
import { watchTreeCpu } from './processTree.ts';

/** Links per load transaction and transactions in flight (2 cores: the bench builds the batches while the server inserts). */
const LOAD_BATCH_LINKS = 1_000;
const LOAD_CONCURRENCY = 4;
const SHARED_BUFFERS = '256MB';

export type PostgresPlan = { readonly bins: PostgresBinaries } | { readonly skipped: string };

/** Whether the run has a PostgreSQL side: `--postgres on` fails here, before any loading, when the server cannot run. */
export function planPostgres(mode: MixedBenchArgs['postgres']): PostgresPlan {
  if (mode === 'off') return { skipped: '--postgres off' };
  const found = findPostgres();
  if ('missing' in found) {
    if (mode === 'on') throw new Error(`--postgres on: ${found.missing}`);
    return { skipped: found.missing };
  }
  return { bins: found };
}

export interface PostgresAnchor {
  readonly server: PostgresServer;
  readonly store: PostgresLinkStore;
  readonly load: Awaited<ReturnType<PostgresLinkStore['load']>> & { readonly cpu: Awaited<ReturnType<typeof withCpu>>['cpu'] };
}

/**
 * Starts the server in `dir` (the run's directory) and loads the graph's
 * links. `onServer` hands the server and store to the caller's cleanup as
 * soon as they exist, so a failed load still stops the server.
 */
export async function startPostgresAnchor(o: {
  bins: PostgresBinaries;
  dir: string;
  graph: LinkGraph;
  clients: number;
  pids: Record<string, number | undefined>;
  status: ReturnType<typeof createStatusLine>;
  onServer: (s: { server: PostgresServer; store?: PostgresLinkStore }) => void;
}): Promise<PostgresAnchor> {
  const server = await startPostgres({ bins: o.bins, dir: o.dir, sharedBuffers: SHARED_BUFFERS, maxConnections: Math.max(100, o.clients + LOAD_CONCURRENCY + 20), log: (l) => o.status.log(l) });
  o.onServer({ server });
  const store = await createPostgresLinkStore({ connection: server.connection, poolSize: Math.max(o.clients, LOAD_CONCURRENCY) });
  o.onServer({ server, store });
  const tree = watchTreeCpu(server.pid);
  const loaded = await withCpu(o.pids, () => store.load(o.graph, { batchLinks: LOAD_BATCH_LINKS, concurrency: LOAD_CONCURRENCY, status: o.status, label: 'postgres load' }));
  const postgresCores = tree.stop() ?? 0;
  const cpu = { ...loaded.cpu, coresByProcess: { ...loaded.cpu.coresByProcess, postgres: postgresCores }, otherCores: Math.max(0, round(loaded.cpu.otherCores - postgresCores, 2)) };
  o.status.done(`postgres load: ${fmt(loaded.links)} links committed in ${loaded.seconds} s (${fmt(loaded.linksPerSecond)} links/s, ${loaded.batchLinks} per transaction, ${loaded.concurrency} in flight; counts in the same transactions); VACUUM ANALYZE ${loaded.vacuumAnalyzeSeconds} s; ${cpuNote(cpu)}`);
  return { server, store, load: { ...loaded, cpu } };
}
