import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { JfrProfile } from '../shared/cassandraJfr.ts';
import type cassandra from 'cassandra-driver';
import { opsDelta, perEvent, tableOps } from '../ingest/cassandraOps.ts';
import { watchCpu, type CpuReport, type CpuWatch } from '../ingest/procStats.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, round } from '../ingest/stats.ts';
import { runClosedLoop, type ClosedLoopResult } from './closedLoop.ts';
import type { LinkGraph } from './linkGraph.ts';
import type { MixTarget } from './mixTarget.ts';
import { createOpStream } from './opMix.ts';
import { mix32 } from '../../cli/workload/scrambledId.ts';
import { lateness, serverTimings, type ServerTimings } from './serverTimings.ts';
import { watchTreeCpu } from './processTree.ts';
import { watchThreadPools } from '../shared/threadPoolCpu.ts';
import type { createVisibilityProbe, VisibilityFigures } from './visibilityProbe.ts';

/** The bench's own loop is watched with 1 ms timers. */
const LOOP_RESOLUTION_MS = 1;

export type SystemName = 'edgestream' | 'raw' | 'postgres';

/** The systems' order in repeat r (1-based): the list rotated by r − 1, so each leads in turn (two systems: alternating). */
export const blockOrder = <T>(systems: readonly T[], repeat: number): T[] => systems.map((_, i) => systems[(i + repeat - 1) % systems.length] as T);

export interface BlockResult extends ClosedLoopResult {
  readonly system: SystemName;
  /** Where Cassandra's CPU went in the block (`--cassandra-jfr`, first repeat). */
  readonly cassandraProfile?: JfrProfile;
  readonly cpu: CpuReport;
  /** CPU milliseconds each process spent per completed op (cores × seconds ÷ ops). */
  readonly cpuMsPerOp: Readonly<Record<string, number>>;
  /** The same for the thread pools of the servers in `threadPools` (server → pool → ms per op): every CPU second, GC and JIT included. */
  readonly cpuMsPerOpByThreadPool?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Cassandra partition reads and writes per op on the system's keyspace (system_views.local_{read,write}_latency); none for postgres. */
  readonly cassandraOpsPerOp?: ReturnType<typeof perEvent>;
  readonly visibility?: VisibilityFigures;
  /** edgestream only: what the server measured itself over the window (its /metrics). */
  readonly server?: ServerTimings;
  /** How late the bench process's own event loop was over the window (ms): a stalled client loop delays every op it sends or reads. */
  readonly benchLoopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number };
}

/**
 * One timed block of the mix against one system: `clients` closed-loop
 * requesters whose op streams are seeded by (seed, repeat, client), so every
 * system gets the same sequences; CPU of every named process and process tree
 * and the Cassandra ops on the system's keyspace are taken over the measured window.
 */
export async function runRequestBlock(o: {
  system: SystemName;
  target: MixTarget;
  graph: LinkGraph;
  repeat: number;
  seed: number;
  accessExponent: number;
  clients: number;
  /** Offered ops/s of all clients together (`--rate`); 0: closed loop. */
  rate: number;
  warmupSeconds: number;
  seconds: number;
  pids: Readonly<Record<string, number | undefined>>;
  /** Multi-process servers by name → root pid: CPU of the root and every descendant (postgres: the postmaster and its backends). */
  trees?: Readonly<Record<string, number>>;
  /** JVM servers by name → pid whose CPU is also split by thread pool (from /proc; the local stack's Cassandra). */
  threadPools?: Readonly<Record<string, number | undefined>>;
  /** The system's own keyspace, for Cassandra's ops per op. */
  cassandra?: { cql: cassandra.Client; keyspace: string };
  probe?: ReturnType<typeof createVisibilityProbe>;
  /** The server's /metrics text, scraped when the window opens and after it. */
  scrapeServer?: () => Promise<string>;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<BlockResult> {
  let watch: CpuWatch | undefined;
  let treeWatches: [string, ReturnType<typeof watchTreeCpu>][] = [];
  let poolWatches: [string, ReturnType<typeof watchThreadPools>][] = [];
  const ks = o.cassandra;
  let ops0 = ks && (await tableOps(ks.cql, ks.keyspace));
  let scrapeBefore: Promise<string> | undefined;
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const loop = await runClosedLoop({
    clients: o.clients,
    rate: o.rate,
    // Arrivals seeded like the op streams: every system gets the same schedule in a repeat.
    rateSeed: mix32(o.repeat, o.seed),
    warmupSeconds: o.warmupSeconds,
    seconds: o.seconds,
    nextOp: (client) => createOpStream({ graph: o.graph, accessExponent: o.accessExponent, seed: o.seed, repeat: o.repeat, client }),
    execute: (op) => o.target.execute(op),
    onMeasureStart: () => {
      watch = watchCpu(o.pids);
      treeWatches = Object.entries(o.trees ?? {}).map(([name, root]) => [name, watchTreeCpu(root)]);
      poolWatches = Object.entries(o.threadPools ?? {}).flatMap(([name, pid]) => (pid === undefined ? [] : [[name, watchThreadPools(pid)]]));
      o.probe?.startRecording();
      if (ks) void tableOps(ks.cql, ks.keyspace).then((t) => (ops0 = t));
      scrapeBefore = o.scrapeServer?.();
      loopDelay.enable();
    },
    onProgress: (done, s) => o.status.update(`${o.label}: ${s < 0.5 ? 'warming up' : `${s.toFixed(0)}/${o.seconds} s, ${fmt(done)} ops (${fmt(done / Math.max(1, s))}/s)`}`),
  });
  loopDelay.disable();
  const delayMs = (ns: number) => lateness(ns / 1e6, LOOP_RESOLUTION_MS);
  const benchLoopDelayMs = { p50: delayMs(loopDelay.percentile(50)), p99: delayMs(loopDelay.percentile(99)), max: delayMs(loopDelay.max) };
  const watched = (watch as CpuWatch).stop();
  const pools = poolWatches.map(([name, w]) => [name, w.stop()] as const);
  const trees = Object.fromEntries(treeWatches.flatMap(([name, w]) => {
    const cores = w.stop();
    return cores === undefined ? [] : [[name, cores]];
  }));
  const cpu = { ...watched, coresByProcess: { ...watched.coresByProcess, ...trees } };
  const cassandraOps = ks && ops0 ? perEvent(opsDelta(ops0, await tableOps(ks.cql, ks.keyspace)), Math.max(1, loop.ops)) : undefined;
  const server = scrapeBefore && o.scrapeServer ? serverTimings(await scrapeBefore, await o.scrapeServer()) : undefined;
  const visibility = o.probe ? await o.probe.collect() : undefined;
  o.status.done();
  const msPerOp = (cores: number) => round((cores * cpu.wallSeconds * 1000) / Math.max(1, loop.ops), 3);
  const cpuMsPerOp = Object.fromEntries(Object.entries(cpu.coresByProcess).map(([name, cores]) => [name, msPerOp(cores)]));
  const cpuMsPerOpByThreadPool = pools.length === 0 ? undefined : Object.fromEntries(pools.map(([name, byPool]) => [name, Object.fromEntries(Object.entries(byPool).map(([pool, cores]) => [pool, msPerOp(cores)]))]));
  return { system: o.system, ...loop, cpu, cpuMsPerOp, ...(cpuMsPerOpByThreadPool ? { cpuMsPerOpByThreadPool } : {}), ...(cassandraOps ? { cassandraOpsPerOp: cassandraOps } : {}), ...(visibility ? { visibility } : {}), ...(server ? { server } : {}), benchLoopDelayMs };
}
