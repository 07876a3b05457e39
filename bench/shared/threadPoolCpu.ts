import fs from 'node:fs';
import { statCpuSeconds } from '../ingest/procStats.ts';
import { threadPool } from './cassandraJfr.ts';

/** One thread of a process: its name (Linux keeps 15 bytes of it) and the CPU seconds it has used. */
export interface ThreadCpu {
  readonly name: string;
  readonly seconds: number;
}

/** `/proc/<pid>/task/<tid>/stat` text → the thread's name and user + system CPU seconds. */
export function parseTaskStat(stat: string): ThreadCpu {
  return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), seconds: statCpuSeconds(stat) };
}

/** Every live thread of `pid` by thread id (empty when the process is gone). */
export function threadsOf(pid: number): Map<string, ThreadCpu> {
  const threads = new Map<string, ThreadCpu>();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      threads.set(tid, parseTaskStat(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
    } catch {
      // exited between the listing and the read
    }
  }
  return threads;
}

/**
 * Cores each thread pool used between two snapshots of one process's threads:
 * the JVM names its threads by pool (`ReadStage-3`, `CompactionExecutor:1`,
 * `G1 Conc#0`; Linux cuts names at 15 bytes, so `Native-Transport-Requests-4`
 * is `Native-Transpor`), and unlike a Flight Recording this counts every CPU
 * second, garbage collection, JIT and native code included. A thread that
 * started in the window counts from zero; one that ended in it is missing.
 */
export function coresByThreadPool(before: ReadonlyMap<string, ThreadCpu>, after: ReadonlyMap<string, ThreadCpu>, wallSeconds: number): Record<string, number> {
  const byPool = new Map<string, number>();
  for (const [tid, t] of after) {
    const used = t.seconds - (before.get(tid)?.seconds ?? 0);
    if (used <= 0) continue;
    const pool = threadPool(t.name);
    byPool.set(pool, (byPool.get(pool) ?? 0) + used);
  }
  return Object.fromEntries([...byPool].sort((a, b) => b[1] - a[1]).map(([pool, s]) => [pool, wallSeconds > 0 ? Math.round((s / wallSeconds) * 1000) / 1000 : 0]));
}

/** Starts watching the threads of `pid`; `stop()` gives the cores of each thread pool since. */
export function watchThreadPools(pid: number): { stop(): Record<string, number> } {
  const t0 = performance.now();
  const before = threadsOf(pid);
  return { stop: () => coresByThreadPool(before, threadsOf(pid), (performance.now() - t0) / 1000) };
}
