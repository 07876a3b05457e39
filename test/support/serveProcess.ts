import { spawn } from 'node:child_process';
import path from 'node:path';
import { PROCESSOR_NODE_FLAGS } from '../../cli/processorNodeFlags.ts';
import { REPO_ROOT } from './processorProcess.ts';

/** `edgestream serve` as a child process, with an inspector session into it for memory figures. */
export interface ServeProcess {
  readonly url: string;
  readonly pid: number;
  /** The server process's resident set size in bytes (its own `process.memoryUsage.rss()`). */
  rss(): Promise<number>;
  /** A full garbage collection in the server process (the inspector's HeapProfiler.collectGarbage). */
  collectGarbage(): Promise<void>;
  /** True until the process exits. */
  alive(): boolean;
  /** The last `chars` characters of its stdout and stderr. */
  tail(chars?: number): string;
  /** SIGTERM (by pid), then SIGKILL after 20 s; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function inspectorSession(wsUrl: string): Promise<{ send(method: string, params?: object): Promise<Record<string, unknown>>; close(): void }> {
  const ws = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error(`cannot open the inspector at ${wsUrl}`)), { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  ws.addEventListener('message', (event) => {
    const msg = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
    const waiter = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!waiter || msg.id === undefined) return;
    pending.delete(msg.id);
    if (msg.error) waiter.reject(new Error(msg.error.message));
    else waiter.resolve(msg.result ?? {});
  });
  ws.addEventListener('close', () => {
    for (const w of pending.values()) w.reject(new Error('the inspector session closed'));
    pending.clear();
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/**
 * Starts `node <flags> --inspect=127.0.0.1:0 bin/edgestream.js --config <file> serve --port 0`
 * (the flags `edgestream` runs with), waits for "listening on <url>" and opens an inspector
 * session (loopback only) through which the test reads the server's RSS and forces a GC.
 * A test measuring the server's memory must not measure its own: the server runs apart.
 */
export async function startServeProcess(opts: { readonly configFile: string; readonly env: Record<string, string> }): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...PROCESSOR_NODE_FLAGS, '--inspect=127.0.0.1:0', path.join(REPO_ROOT, 'bin/edgestream.js'), '--config', opts.configFile, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('spawning edgestream serve failed (no pid)');
  let output = '';
  let running = true;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running = false;
      resolve(code);
    }),
  );
  const { url, wsUrl } = await new Promise<{ url: string; wsUrl: string }>((resolve, reject) => {
    let url: string | undefined;
    let wsUrl: string | undefined;
    const take = (d: Buffer) => {
      output = (output + d.toString()).slice(-200_000);
      url ??= /listening on (https?:\/\/\S+)/.exec(output)?.[1];
      wsUrl ??= /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
      if (url && wsUrl) resolve({ url, wsUrl });
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    void exited.then((code) => reject(new Error(`edgestream serve exited ${code} before listening:\n${output.slice(-3_000)}`)));
  });
  const session = await inspectorSession(wsUrl);
  return {
    url,
    pid: child.pid,
    async rss() {
      const r = (await session.send('Runtime.evaluate', { expression: 'process.memoryUsage.rss()', returnByValue: true })) as { result?: { value?: unknown } };
      if (typeof r.result?.value !== 'number') throw new Error(`the server did not report its RSS: ${JSON.stringify(r)}`);
      return r.result.value;
    },
    async collectGarbage() {
      await session.send('HeapProfiler.collectGarbage');
    },
    alive: () => running,
    tail: (chars = 3_000) => output.slice(-chars),
    async stop() {
      session.close();
      if (running) child.kill('SIGTERM');
      const killer = setTimeout(() => running && child.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(killer);
      return code;
    },
  };
}
