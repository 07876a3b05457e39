import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isOurProcess, residentBytes, spawnDetached, stopProcess, type ServerRecord } from './processControl.ts';
import { portOpen, tailFile, waitUntil } from './readiness.ts';
import { cassandraServer } from './servers/cassandraServer.ts';
import { kafkaServer } from './servers/kafkaServer.ts';
import type { LocalServer } from './servers/localServer.ts';
import { registryServer } from './servers/registryServer.ts';
import { StackError } from './stackError.ts';
import type { StackConfig } from './stackConfig.ts';

/** Start order matters on 2 cores: Cassandra is the slowest, so it starts first. */
export const LOCAL_SERVERS: readonly LocalServer[] = [cassandraServer, kafkaServer, registryServer];

export type Log = (line: string) => void;

const serverDir = (config: StackConfig, name: string) => path.join(config.runDir, name);
const recordPath = (config: StackConfig, name: string) => path.join(serverDir(config, name), 'server.json');
const markerFor = (config: StackConfig, name: string) => `-Dedgestream.stack=${name}@${config.runDir}`;

export function readRecord(config: StackConfig, name: string): ServerRecord | undefined {
  try {
    return JSON.parse(fs.readFileSync(recordPath(config, name), 'utf8')) as ServerRecord;
  } catch {
    return undefined;
  }
}

/** Serialises concurrent `up`/`down` calls on one run dir (e.g. a test run and a demo). */
async function withLock<T>(config: StackConfig, log: Log, fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(config.runDir, { recursive: true });
  const lock = path.join(config.runDir, 'stack.lock');
  const deadline = Date.now() + config.readyTimeoutMs + 60_000;
  for (let warned = false; ; ) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      const holder = Number(fs.readFileSync(lock, 'utf8'));
      let alive = false;
      try { process.kill(holder, 0); alive = holder !== process.pid; } catch { alive = false; }
      if (!alive) { fs.rmSync(lock, { force: true }); continue; }
      if (Date.now() > deadline) throw new StackError('START_FAILED', `stack lock ${lock} held by pid ${holder} for too long`);
      if (!warned) { log(`waiting for pid ${holder}, which is changing the stack`); warned = true; }
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

export async function startServer(config: StackConfig, server: LocalServer, log: Log, keepData = false): Promise<ServerRecord> {
  const dir = serverDir(config, server.name);
  for (const port of server.ports(config)) {
    const host = server.host ?? '127.0.0.1';
    if (await portOpen(port, host)) {
      throw new StackError('PORT_IN_USE',
        `${server.name}: port ${port} on ${host} is already in use by a process this stack did not start. ` +
        `Stop it, or shift every port with EDGESTREAM_STACK_PORT_OFFSET=<n>.`);
    }
  }
  if (!keepData) fs.rmSync(dir, { recursive: true, force: true }); // every `up` is a fresh, throwaway node
  fs.mkdirSync(dir, { recursive: true });
  const marker = markerFor(config, server.name);
  const plan = await server.prepare({ config, dir, marker });
  const logPath = path.join(dir, `${server.name}.log`);
  const pid = spawnDetached(plan.bin, plan.args, logPath, dir, plan.env);
  const record: ServerRecord = { server: server.name, pid, marker, logPath, startedAt: new Date().toISOString() };
  fs.writeFileSync(recordPath(config, server.name), JSON.stringify(record, null, 2));
  log(`${server.name}: started pid ${pid}, log ${logPath}`);
  return record;
}

export async function awaitReady(config: StackConfig, server: LocalServer, record: ServerRecord): Promise<void> {
  const outcome = await waitUntil(() => server.ready(config), {
    timeoutMs: config.readyTimeoutMs,
    alive: () => isOurProcess(record),
  });
  if (outcome === 'ready') return;
  const why = outcome === 'died' ? 'exited during startup' : `was not ready after ${config.readyTimeoutMs} ms`;
  throw new StackError(outcome === 'died' ? 'START_FAILED' : 'NOT_READY',
    `${server.name} ${why}. Last lines of ${record.logPath}:\n${tailFile(record.logPath)}`);
}

export interface UpResult {
  readonly started: readonly string[];
  readonly alreadyRunning: readonly string[];
  readonly elapsedMs: number;
}

/**
 * Brings every server up and waits for real readiness. Idempotent: servers already
 * running (pid alive and ours) are left alone; a stale pid file is discarded. If any
 * server fails, the ones this call started are stopped again and the error says why.
 */
export async function stackUp(config: StackConfig, log: Log, servers: readonly LocalServer[] = LOCAL_SERVERS): Promise<UpResult> {
  return withLock(config, log, async () => {
    const t0 = Date.now();
    const started: ServerRecord[] = [];
    const alreadyRunning: string[] = [];
    const pending: Promise<void>[] = [];
    try {
      for (const server of servers) {
        const existing = readRecord(config, server.name);
        if (existing && isOurProcess(existing)) {
          alreadyRunning.push(server.name);
          pending.push(awaitReady(config, server, existing));
          continue;
        }
        if (existing) log(`${server.name}: discarding stale pid file (pid ${existing.pid} is gone)`);
        const record = await startServer(config, server, log);
        started.push(record);
        pending.push(awaitReady(config, server, record).then(() => log(`${server.name}: ready after ${Date.now() - t0} ms`)));
      }
      const results = await Promise.allSettled(pending);
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) throw failure.reason;
    } catch (e) {
      for (const record of started) await stopProcess(record, 5_000);
      throw e;
    }
    return { started: started.map((r) => r.server), alreadyRunning, elapsedMs: Date.now() - t0 };
  });
}

/** Stops every server this run dir started (by recorded pid only) and deletes their data. */
export async function stackDown(config: StackConfig, log: Log, servers: readonly LocalServer[] = LOCAL_SERVERS): Promise<void> {
  await withLock(config, log, async () => {
    for (const server of [...servers].reverse()) {
      const record = readRecord(config, server.name);
      if (!record) continue;
      const outcome = await stopProcess(record, 15_000);
      log(`${server.name}: ${outcome}${outcome === 'not-running' ? '' : ` (pid ${record.pid})`}`);
      fs.rmSync(path.join(serverDir(config, server.name), 'data'), { recursive: true, force: true });
      fs.rmSync(recordPath(config, server.name), { force: true });
    }
  });
}

/**
 * Stops one running server (SIGTERM, so Cassandra drains) and starts it again on the
 * same data after `downMs`: a real outage for failure tests. Resolves once it is ready.
 */
export async function restartServer(config: StackConfig, name: LocalServer['name'], opts: { downMs: number; log: Log; onDown?: () => void }): Promise<void> {
  const server = LOCAL_SERVERS.find((s) => s.name === name);
  const record = readRecord(config, name);
  if (!server || !record || !isOurProcess(record)) {
    throw new StackError('START_FAILED', `${name} is not running in ${config.runDir}, so it cannot be restarted`);
  }
  await stopProcess(record, 30_000);
  opts.log(`${name}: stopped for a restart (pid ${record.pid})`);
  opts.onDown?.();
  await sleep(opts.downMs);
  const restarted = await startServer(config, server, opts.log, true);
  await awaitReady(config, server, restarted);
  opts.log(`${name}: back after the restart (pid ${restarted.pid})`);
}

export interface ServerStatus {
  readonly server: string;
  readonly state: 'running' | 'stopped' | 'stale-pid-file';
  readonly ready: boolean;
  readonly pid?: number;
  readonly rssBytes?: number;
  readonly logPath?: string;
}

export async function stackStatus(config: StackConfig, servers: readonly LocalServer[] = LOCAL_SERVERS): Promise<ServerStatus[]> {
  return Promise.all(
    servers.map(async (server): Promise<ServerStatus> => {
      const record = readRecord(config, server.name);
      if (!record) return { server: server.name, state: 'stopped', ready: false };
      if (!isOurProcess(record)) return { server: server.name, state: 'stale-pid-file', ready: false, pid: record.pid, logPath: record.logPath };
      const ready = await server.ready(config).catch(() => false);
      return { server: server.name, state: 'running', ready, pid: record.pid, rssBytes: residentBytes(record.pid), logPath: record.logPath };
    }),
  );
}
