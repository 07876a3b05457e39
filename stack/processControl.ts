import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** What `up` records for each server so `down`/`status` find exactly the process it started. */
export interface ServerRecord {
  readonly server: string;
  readonly pid: number;
  /** A JVM argument unique to this server and run dir: guards against a reused pid. */
  readonly marker: string;
  readonly logPath: string;
  readonly startedAt: string;
}

/** Starts a detached process whose stdout+stderr go to `logPath`; it outlives this Node process. */
export function spawnDetached(bin: string, args: readonly string[], logPath: string, cwd: string, env?: NodeJS.ProcessEnv): number {
  const out = fs.openSync(logPath, 'a');
  const child = spawn(bin, args, { cwd, detached: true, stdio: ['ignore', out, out], env: env ?? process.env });
  fs.closeSync(out);
  if (child.pid === undefined) throw new Error(`could not spawn ${bin}`);
  child.unref();
  return child.pid;
}

/** True when `pid` is alive and is still the process we started (its cmdline carries `marker`). */
export function isOurProcess(record: Pick<ServerRecord, 'pid' | 'marker'>): boolean {
  try {
    process.kill(record.pid, 0);
  } catch {
    return false;
  }
  try {
    const cmdline = fs.readFileSync(`/proc/${record.pid}/cmdline`, 'utf8');
    if (!cmdline.includes(record.marker)) return false;
    const stat = fs.readFileSync(`/proc/${record.pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z /.test(stat); // a zombie is not alive
  } catch {
    return true; // no /proc (non-Linux): the signal check is all we have
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone (and reaped). */
export async function stopProcess(record: Pick<ServerRecord, 'pid' | 'marker'>, graceMs: number): Promise<'stopped' | 'killed' | 'not-running'> {
  if (!isOurProcess(record)) return 'not-running';
  process.kill(record.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let outcome: 'stopped' | 'killed' = 'stopped';
  while (isOurProcess(record)) {
    if (Date.now() > deadline && outcome === 'stopped') {
      outcome = 'killed';
      try {
        process.kill(record.pid, 'SIGKILL');
      } catch {
        break;
      }
    }
    await sleep(200);
  }
  await awaitReaped(record.pid);
  return outcome;
}

/**
 * A process that exited stays a zombie until its parent reaps it. When the parent is
 * this Node process (a test that started the stack), libuv reaps on the event loop,
 * so yield until the pid is gone, for at most 2 s.
 */
async function awaitReaped(pid: number): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await sleep(50);
  }
}

/** Resident set size of a process in bytes (Linux), or undefined. */
export function residentBytes(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m?.[1] ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Peak resident set size (VmHWM) of a process in bytes (Linux), or undefined. */
export function peakResidentBytes(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m?.[1] ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
