import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/**
 * Where a JVM server's CPU went while a phase ran: Java Flight Recorder's
 * execution samples (`settings=profile`), by thread pool (Cassandra names its
 * stages' threads: ReadStage, MutationStage, Native-Transport-Requests,
 * CompactionExecutor …) and by the frame on top of the stack. Only threads
 * running Java code are sampled: GC, JIT and time in native calls are not here.
 */
export interface JfrProfile {
  readonly samples: number;
  /** Thread pool → share of the samples (0–1), largest first. */
  readonly byThreadPool: Readonly<Record<string, number>>;
  /** The methods most often on top of the stack, with their share. */
  readonly topFrames: readonly { readonly frame: string; readonly share: number }[];
}

/** A thread's pool: its name without the trailing instance number (`ReadStage-3` → `ReadStage`, `CompactionExecutor:2` → `CompactionExecutor`). */
export function threadPool(threadName: string): string {
  return threadName.replace(/[-:#]\d+$/, '');
}

/**
 * Folds `jfr print --events jdk.ExecutionSample` text, line by line, into a
 * profile: one sample per `sampledThread = "…"` line, its top frame the first
 * line of the `stackTrace = [` that follows.
 */
export function createJfrTextFold(topFrames = 20): { line(text: string): void; profile(): JfrProfile } {
  const pools = new Map<string, number>();
  const frames = new Map<string, number>();
  let samples = 0;
  let wantFrame = false;
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  return {
    line(text) {
      const t = text.trim();
      const thread = /^sampledThread = "(.*)"/.exec(t);
      if (thread) {
        samples++;
        bump(pools, threadPool(thread[1] as string));
        return;
      }
      if (t === 'stackTrace = [') return void (wantFrame = true);
      if (wantFrame) {
        wantFrame = false;
        // `org.apache.cassandra.db.ReadCommand.executeLocally(ReadExecutionController) line: 412` → the method without arguments.
        if (t !== ']' && t !== '...') bump(frames, t.replace(/\(.*$/, ''));
      }
    },
    profile() {
      const share = (n: number) => (samples === 0 ? 0 : Math.round((n / samples) * 1000) / 1000);
      const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
      return {
        samples,
        byThreadPool: Object.fromEntries(sorted(pools).map(([k, n]) => [k, share(n)])),
        topFrames: sorted(frames).slice(0, topFrames).map(([frame, n]) => ({ frame, share: share(n) })),
      };
    },
  };
}

/** The JDK tools beside the JVM that runs `pid` (jcmd and jfr must match its version). */
function jdkTool(pid: number, tool: 'jcmd' | 'jfr'): string {
  const java = fs.readlinkSync(`/proc/${pid}/exe`);
  const bin = path.join(path.dirname(java), tool);
  if (!fs.existsSync(bin)) throw new Error(`no ${tool} beside ${java} (the JVM of pid ${pid}): install the JDK's tools to profile it`);
  return bin;
}

/** Why a JVM cannot be profiled here, or undefined when it can. */
export function jfrUnavailable(pid: number | undefined): string | undefined {
  if (pid === undefined) return 'its pid is not known (a stack started elsewhere)';
  try {
    jdkTool(pid, 'jcmd');
    jdkTool(pid, 'jfr');
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Records `fn` on the JVM `pid` with JFR and folds the execution samples; the recording file is kept as `file`. */
export async function withJfr<T>(pid: number, file: string, fn: () => Promise<T>): Promise<{ result: T; profile: JfrProfile }> {
  const jcmd = jdkTool(pid, 'jcmd');
  const name = `bench-${path.basename(file, '.jfr')}`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await exec(jcmd, [String(pid), 'JFR.start', `name=${name}`, 'settings=profile', `filename=${path.resolve(file)}`]);
  let result: T;
  try {
    result = await fn();
  } finally {
    await exec(jcmd, [String(pid), 'JFR.stop', `name=${name}`]);
  }
  return { result, profile: await foldJfrFile(jdkTool(pid, 'jfr'), file) };
}

/** Streams `jfr print` of the file's execution samples through the fold (the text runs to hundreds of MB). */
async function foldJfrFile(jfr: string, file: string): Promise<JfrProfile> {
  const fold = createJfrTextFold();
  const child = spawn(jfr, ['print', '--events', 'jdk.ExecutionSample', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  for await (const line of readline.createInterface({ input: child.stdout })) fold.line(line);
  const code = await exited;
  if (code !== 0) throw new Error(`jfr print ${file} exited ${code}: ${stderr.slice(0, 500)}`);
  return fold.profile();
}

/** One line: the pools above 2 %, then the three hottest frames. */
export function jfrNote(p: JfrProfile): string {
  const pools = Object.entries(p.byThreadPool).filter(([, s]) => s >= 0.02).map(([k, s]) => `${k} ${(s * 100).toFixed(0)}%`);
  const frames = p.topFrames.slice(0, 3).map((f) => `${f.frame.split('.').slice(-2).join('.')} ${(f.share * 100).toFixed(1)}%`);
  return `Cassandra JFR (${p.samples} samples): ${pools.join(', ')}; top frames ${frames.join(', ')}`;
}
