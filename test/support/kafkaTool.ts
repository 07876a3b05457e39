import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ensureKafkaTools } from '../../stack/kafkaTools/kafkaToolsRuntime.ts';
import { loadStackConfig } from '../../stack/stackConfig.ts';
import { REPO_ROOT } from './processorProcess.ts';

export interface ToolRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Resolves the Kafka tools as `npm run kafka` does; a test that needs them fails here,
 * saying why, instead of skipping (Maven missing, no JDK, a download refused).
 */
export async function requireKafkaTools(): Promise<void> {
  try {
    await ensureKafkaTools(loadStackConfig().cacheDir);
  } catch (e) {
    throw new Error(`the Kafka command-line tools could not be resolved: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** Starts `npm run kafka -- <tool> ...args` (its launcher, without npm) as a child process of this test. */
export function spawnKafkaTool(tool: string, args: readonly string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(REPO_ROOT, 'stack/kafkaTools/cli.ts'), tool, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Collects a tool's output until it exits; SIGTERMs it (launcher and JVM) after `timeoutMs`. */
export function toolResult(child: ChildProcess, timeoutMs = 120_000): Promise<ToolRun> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs one Kafka tool to completion with `input` on its stdin. */
export function runKafkaTool(tool: string, args: readonly string[], env: Record<string, string>, { input = '', timeoutMs = 120_000 } = {}): Promise<ToolRun> {
  const child = spawnKafkaTool(tool, args, env);
  const result = toolResult(child, timeoutMs);
  child.stdin?.end(input);
  return result;
}
