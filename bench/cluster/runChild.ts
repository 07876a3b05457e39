import { spawn } from 'node:child_process';
import { watchCpu, type CpuReport, type ProcessPids } from '../ingest/procStats.ts';
import { REPO_ROOT } from '../shared/benchEnvironment.ts';

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly seconds: number;
  /** CPU of `watched` (the stack not under test) while the child ran. */
  readonly watched: CpuReport;
}

export interface RunningChild {
  readonly pid: number | undefined;
  readonly exited: Promise<ChildExit>;
  /** SIGTERM to this child (its own handler cleans up its keyspace and topics, then it exits). */
  stop(): void;
}

/**
 * Runs `node <argv>` from the repo root with this process's environment and terminal (the
 * child's progress lines show as they come), and watches the CPU of `watched` meanwhile.
 */
export function runChild(argv: readonly string[], watched: ProcessPids): RunningChild {
  const t0 = performance.now();
  const cpu = watchCpu(watched);
  const child = spawn(process.execPath, [...argv], { cwd: REPO_ROOT, env: process.env, stdio: 'inherit' });
  const exited = new Promise<ChildExit>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal, seconds: Math.round((performance.now() - t0) / 100) / 10, watched: cpu.stop() });
    child.once('exit', done);
    child.once('error', () => done(null, null));
  });
  return {
    pid: child.pid,
    exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
