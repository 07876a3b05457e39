import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import { peakRssBytes, rssBytes } from './procStats.ts';

/**
 * The processors under test, in their own process exactly as deployed:
 * `node [nodeArgs] <entry> --config <file> run <stages...>` with the stack's
 * endpoints in the environment. Its stdout/stderr go to a log file; pino lines
 * are parsed for readiness, progress and warnings.
 */
export interface ProcessorChild {
  readonly pid: number;
  /** Resolves when the CLI logged that it is running (consumers started). Rejects if it exits first. */
  readonly ready: Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly counts: { warn: number; error: number; fatal: number };
  /** Warnings and worse, grouped by level and message, most frequent first, each with its first record (so a result says what they were). */
  problems(): LogProblem[];
  /** The last progress record per component (events_per_s, link cache...). */
  readonly progress: Map<string, Record<string, unknown>>;
  /** Every `recount round` the degree recounter logged, with when the bench saw it (performance.now()). */
  readonly recountRounds: { atMs: number; marks: number; recounted: number }[];
  tail(): string[];
  /** SIGTERM by pid, then SIGKILL after `graceMs`. Resolves when it is gone. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exitedEarly(): boolean;
}

export interface SpawnOptions {
  readonly repoRoot: string;
  readonly entry: string;
  readonly args: readonly string[];
  readonly nodeArgs?: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly logFile: string;
  /**
   * Run it in its own session, so the kernel schedules it as its own group (autogroup), as a
   * service of its own would be, rather than sharing the bench's; the caller must then stop it on a signal.
   */
  readonly ownSession?: boolean;
}

export interface LogProblem {
  readonly level: 'warn' | 'error' | 'fatal';
  readonly msg: string;
  readonly count: number;
  /** The first such line, cut to 600 characters. */
  readonly first: string;
}

const LEVEL_NAMES: Record<number, 'warn' | 'error' | 'fatal'> = { 40: 'warn', 50: 'error', 60: 'fatal' };
/** kafkajs' own JSON lines carry their level as a word. */
const KAFKAJS_LEVELS: Record<string, 'warn' | 'error'> = { WARN: 'warn', ERROR: 'error' };
const MAX_PROBLEM_KINDS = 50;

export function spawnProcessorChild(o: SpawnOptions): ProcessorChild {
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), o.entry, ...o.args], {
    cwd: o.repoRoot,
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: o.ownSession === true,
  });
  if (child.pid === undefined) throw new Error(`could not spawn ${o.entry}`);
  const pid = child.pid;
  const log = fs.createWriteStream(o.logFile);
  const tail: string[] = [];
  const counts = { warn: 0, error: 0, fatal: 0 };
  const problems = new Map<string, { level: LogProblem['level']; msg: string; count: number; first: string }>();
  const progress = new Map<string, Record<string, unknown>>();
  const recountRounds: { atMs: number; marks: number; recounted: number }[] = [];
  let exited = false;
  let readySettle!: { resolve: () => void; reject: (e: Error) => void };
  const ready = new Promise<void>((resolve, reject) => (readySettle = { resolve, reject }));
  ready.catch(() => {});

  const onLine = (line: string): void => {
    log.write(`${line}\n`);
    tail.push(line);
    if (tail.length > 40) tail.shift();
    if (!line.startsWith('{')) return;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const level = LEVEL_NAMES[Number(rec['level'])] ?? KAFKAJS_LEVELS[String(rec['level'])];
    if (level) {
      counts[level]++;
      const msg = String(rec['msg'] ?? rec['message'] ?? '?');
      const key = `${level} ${msg}`;
      const seen = problems.get(key);
      if (seen) seen.count++;
      else if (problems.size < MAX_PROBLEM_KINDS) problems.set(key, { level, msg, count: 1, first: line.slice(0, 600) });
    }
    if (rec['msg'] === 'progress') progress.set(`${String(rec['component'] ?? '?')}:${String(rec['processor'] ?? rec['cascade'] ?? '')}`, rec);
    if (rec['msg'] === 'recount round') recountRounds.push({ atMs: performance.now(), marks: Number(rec['marks'] ?? 0), recounted: Number(rec['recounted'] ?? 0) });
    if (typeof rec['msg'] === 'string' && rec['msg'].startsWith('running;')) readySettle.resolve();
  };
  readline.createInterface({ input: child.stdout }).on('line', onLine);
  readline.createInterface({ input: child.stderr }).on('line', onLine);

  const exitedPromise = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = true;
      readySettle.reject(new Error(`processor child exited (code ${code}, signal ${signal}) before it was ready:\n${tail.join('\n')}`));
      resolve({ code, signal });
    });
  });
  // Close the log only after both pipes drained (the 'close' event follows 'exit').
  child.on('close', () => log.end());

  return {
    pid,
    ready,
    exited: exitedPromise,
    counts,
    problems: () => [...problems.values()].sort((a, b) => b.count - a.count),
    progress,
    recountRounds,
    tail: () => [...tail],
    exitedEarly: () => exited,
    async stop(graceMs = 30_000) {
      if (!exited) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
        const timer = setTimeout(() => {
          try {
            if (!exited) process.kill(pid, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }, graceMs);
        const result = await exitedPromise;
        clearTimeout(timer);
        return result;
      }
      return exitedPromise;
    },
  };
}

/** One memory sample of the child, with what the bench knew at that moment. */
export interface RssSample {
  readonly tMs: number;
  readonly rssMiB: number;
  /** Events produced but not yet committed by the fan-out group. */
  readonly backlog: number;
  readonly phase: string;
}

/** Samples VmRSS every `intervalMs` until stopped. */
export function sampleRss(pid: number, intervalMs: number, context: () => { backlog: number; phase: string }): { samples: RssSample[]; stop(): void } {
  const t0 = performance.now();
  const samples: RssSample[] = [];
  const take = () => {
    const rss = rssBytes(pid);
    if (rss === undefined) return;
    samples.push({ tMs: Math.round(performance.now() - t0), rssMiB: Math.round((rss / 1048576) * 10) / 10, ...context() });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
    },
  };
}

export const peakRssMiB = (pid: number): number | undefined => {
  const b = peakRssBytes(pid);
  return b === undefined ? undefined : Math.round((b / 1048576) * 10) / 10;
};
