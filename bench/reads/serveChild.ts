import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { endpointsToEnv, type StackEndpoints } from '../../stack/endpoints.ts';
import { REPO_ROOT } from '../shared/benchEnvironment.ts';

export interface ServeChild {
  readonly url: string;
  readonly pid: number;
  /** SIGTERM, then wait for the exit (the server drains and closes its clients). */
  stop(): Promise<void>;
}

/**
 * A real `edgestream serve` in a child process (bin/edgestream.js, the npm
 * script's node flags) on a free port, with the run's config written to
 * `dir`; the per-address rate limit is raised so the load generator's one
 * address is not refused. Its pino log goes to `dir/serve.log`. Given
 * `endpoints`, the child reaches that stack (their env form); else it finds
 * one as every command does. With `ownSession` it runs in a session of its own:
 * the kernel then schedules it as its own group (autogroup), as a service of its
 * own would be, instead of sharing the bench's group; the caller stops it on a signal.
 */
export async function startServeChild(config: EdgestreamConfig, dir: string, label: string, nodeArgs: readonly string[] = [], o: { readonly endpoints?: StackEndpoints; readonly ownSession?: boolean } = {}): Promise<ServeChild> {
  const { endpoints, ownSession = false } = o;
  const configFile = path.join(dir, `serve-${label}.config.json`);
  fs.writeFileSync(configFile, JSON.stringify({ ...config, server: { ...config.server, rateLimitMax: 10_000_000 } }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  const log = fs.openSync(path.join(dir, `serve-${label}.log`), 'a');
  const child: ChildProcess = spawn(process.execPath, ['--max-semi-space-size=64', ...nodeArgs, path.join(REPO_ROOT, 'bin/edgestream.js'), '--config', configFile, 'serve', '--port', '0'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...(endpoints ? endpointsToEnv(endpoints) : {}), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', log],
    detached: ownSession,
  });
  fs.closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`edgestream serve did not listen within 60 s (log: ${dir}/serve-${label}.log)`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`edgestream serve exited with ${code} before listening (log: ${dir}/serve-${label}.log)`));
    });
  });
  const pid = child.pid as number;
  return {
    url,
    pid,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
