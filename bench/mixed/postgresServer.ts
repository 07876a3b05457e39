import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createTreePause } from './processTree.ts';

/**
 * A throwaway PostgreSQL server for bench:mixed: initdb into a directory of
 * the run, one postmaster on a free loopback port (no Unix socket), started
 * as a non-root user, stopped by its pid (never by name). Durability is the
 * server's default (fsync, synchronous_commit and full_page_writes on): a
 * commit returns once its WAL is flushed.
 */

const run = promisify(execFile);
const SEARCH = ['/usr/local/bin', '/usr/lib/postgresql/15/bin', ...(process.env['PATH'] ?? '').split(':').filter(Boolean)];
export const POSTGRES_USER = 'bench';
export const POSTGRES_DATABASE = 'postgres';
/** Settings the result records, so the durability and memory the figures come with are stated. */
const REPORTED_SETTINGS = ['server_version', 'shared_buffers', 'fsync', 'synchronous_commit', 'wal_sync_method', 'full_page_writes', 'wal_level', 'max_wal_size', 'checkpoint_timeout', 'max_connections', 'autovacuum'];

export interface PostgresBinaries {
  readonly postgres: string;
  readonly initdb: string;
  /** The OS user the server runs as when the bench is root (postgres refuses root). */
  readonly runAs?: { readonly name: string; readonly uid: number; readonly gid: number };
}

/** The binaries and the user to run them as, or why they cannot be used (the reason `--postgres on` fails with). */
export function findPostgres(): PostgresBinaries | { readonly missing: string } {
  const find = (name: string) => SEARCH.map((d) => path.join(d, name)).find((p) => fs.existsSync(p));
  const postgres = find('postgres');
  const initdb = find('initdb');
  if (!postgres || !initdb) return { missing: `no PostgreSQL server binaries (postgres and initdb) in ${[...new Set(SEARCH)].join(', ')}` };
  if (process.getuid?.() !== 0) return { postgres, initdb };
  const entry = fs.readFileSync('/etc/passwd', 'utf8').split('\n').map((l) => l.split(':')).find((f) => f[0] === 'postgres');
  if (!entry) return { missing: `the bench runs as root, which PostgreSQL refuses, and there is no 'postgres' user to run the server as (useradd --system postgres)` };
  return { postgres, initdb, runAs: { name: 'postgres', uid: Number(entry[2]), gid: Number(entry[3]) } };
}

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresServer {
  readonly pid: number;
  readonly port: number;
  readonly dataDir: string;
  readonly logFile: string;
  /** Connection settings for node-postgres. */
  readonly connection: pg.ClientConfig;
  /** SHOW of the settings that qualify the figures (durability, memory, version). */
  readonly settings: Readonly<Record<string, string>>;
  /** SIGSTOP / SIGCONT of the postmaster and every backend, while another system is measured. */
  pause(): void;
  resume(): void;
  /** Fast shutdown (SIGINT) by pid, then SIGQUIT, then SIGKILL if it will not go. Idempotent. */
  stop(): Promise<void>;
}

/** initdb + start; on any failure the server started so far is stopped before the error is thrown. */
export async function startPostgres(o: { bins: PostgresBinaries; dir: string; sharedBuffers: string; maxConnections: number; log: (line: string) => void }): Promise<PostgresServer> {
  const { bins } = o;
  const owner = bins.runAs ? { uid: bins.runAs.uid, gid: bins.runAs.gid } : {};
  const dataDir = path.join(o.dir, 'pgdata');
  const logFile = path.join(o.dir, 'postgres.log');
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (bins.runAs) {
    fs.chmodSync(o.dir, 0o711); // the server's user must reach its data directory inside the run's (root-owned) directory
    fs.chownSync(dataDir, bins.runAs.uid, bins.runAs.gid);
  }
  try {
    await run(bins.initdb, ['-D', dataDir, '-U', POSTGRES_USER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'], { ...owner, cwd: dataDir });
  } catch (e) {
    throw new Error(`initdb ${dataDir} failed: ${(e as { stderr?: string }).stderr?.trim() || String(e)}`);
  }
  const port = await freeLoopbackPort();
  const logFd = fs.openSync(logFile, 'a');
  const child = spawn(
    bins.postgres,
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', `shared_buffers=${o.sharedBuffers}`, '-c', `max_connections=${o.maxConnections}`],
    { ...owner, cwd: dataDir, detached: true, stdio: ['ignore', logFd, logFd] },
  );
  fs.closeSync(logFd);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${bins.postgres}`);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const tree = createTreePause(pid);
  // A bench that dies without its cleanup still asks the server to shut down.
  const onExit = () => {
    if (exited) return;
    tree.resume();
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // gone already
    }
  };
  process.once('exit', onExit);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      tree.resume();
      for (const [signal, waitMs] of [['SIGINT', 30_000], ['SIGQUIT', 10_000], ['SIGKILL', 10_000]] as const) {
        if (exited) break;
        try {
          process.kill(pid, signal);
        } catch {
          break;
        }
        await Promise.race([exit, new Promise((r) => setTimeout(r, waitMs))]);
      }
      process.off('exit', onExit);
    })());
  const connection: pg.ClientConfig = { host: '127.0.0.1', port, user: POSTGRES_USER, database: POSTGRES_DATABASE };
  const tail = () => fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (exited) throw new Error(`postgres exited while starting:\n${tail()}`);
      const client = new pg.Client(connection);
      try {
        await client.connect();
        const settings: Record<string, string> = {};
        for (const name of REPORTED_SETTINGS) settings[name] = String((await client.query(`SHOW ${name}`)).rows[0]?.[name]);
        await client.end();
        o.log(`postgres: pid ${pid} on 127.0.0.1:${port}, data ${dataDir}; ${REPORTED_SETTINGS.map((n) => `${n} ${settings[n]}`).join(', ')}`);
        return { pid, port, dataDir, logFile, connection, settings, pause: () => tree.pause(), resume: () => tree.resume(), stop };
      } catch (e) {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 60 s (${String(e)}):\n${tail()}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } catch (e) {
    await stop();
    throw e;
  }
}
