import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROCESSOR_NODE_FLAGS } from '../../cli/processorNodeFlags.ts';

/** The repository root (this file is test/support/processorProcess.ts). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ProcessorProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly logPath: string;
  readonly startedAt: number;
  /** Settles when the process has exited (never rejects). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** True until the process exits. */
  alive(): boolean;
  /** Sends `signal` to this process only (by its pid) and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last `lines` lines of its log (stdout and stderr). */
  tail(lines?: number): string;
}

/**
 * Starts `node bin/edgestream.js --config <file> run <stages...> [args...]` as a child
 * process, stdout and stderr appended to `logPath`. Tracks every process it
 * started in `registry` so a test's afterAll can SIGKILL whatever is still
 * alive, by pid, even when the test failed half-way.
 */
export function startProcessorProcess(opts: {
  readonly configFile: string;
  readonly stages: readonly string[];
  /** Flags of `run` after the stages, e.g. `['--metrics-port', '9464']`. */
  readonly args?: readonly string[];
  readonly env: Record<string, string>;
  readonly logPath: string;
  readonly registry: Set<ProcessorProcess>;
}): ProcessorProcess {
  const fd = fs.openSync(opts.logPath, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...PROCESSOR_NODE_FLAGS, path.join(REPO_ROOT, 'bin/edgestream.js'), '--config', opts.configFile, 'run', ...opts.stages, ...(opts.args ?? [])], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    fs.closeSync(fd);
  }
  if (child.pid === undefined) throw new Error('spawning the processor failed (no pid)');
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      resolve({ code, signal });
    });
    child.once('error', () => {
      running = false;
      resolve({ code: null, signal: null });
    });
  });
  const proc: ProcessorProcess = {
    child,
    pid: child.pid,
    logPath: opts.logPath,
    startedAt: Date.now(),
    exited,
    alive: () => running,
    async kill(signal) {
      if (running) child.kill(signal);
      return exited;
    },
    tail(lines = 40) {
      try {
        return fs.readFileSync(opts.logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      } catch {
        return '(no log)';
      }
    },
  };
  opts.registry.add(proc);
  void exited.then(() => opts.registry.delete(proc));
  return proc;
}

/** SIGKILLs every process of `registry` that is still alive (by pid) and waits for each to exit. */
export async function killAll(registry: Set<ProcessorProcess>): Promise<void> {
  await Promise.all([...registry].map((p) => p.kill('SIGKILL')));
}
