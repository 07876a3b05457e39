import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { stackDown, stackStatus, stackUp, readRecord, LOCAL_SERVERS } from '../../stack/localStack.ts';
import { isOurProcess } from '../../stack/processControl.ts';
import { portOpen } from '../../stack/readiness.ts';
import { loadStackConfig } from '../../stack/stackConfig.ts';
import type { LocalServer } from '../../stack/servers/localServer.ts';
import { StackError } from '../../stack/stackError.ts';

// A second, private stack on shifted ports, so up/down can be tested without touching
// the stack the rest of the suite runs on.
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-stack-test-'));
const config = loadStackConfig({ ...process.env, EDGESTREAM_STACK_PORT_OFFSET: String(Number(process.env['EDGESTREAM_STACK_PORT_OFFSET'] ?? 0) + 500), EDGESTREAM_STACK_DIR: runDir });
const lines: string[] = [];
const log = (line: string) => lines.push(line);

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('local JVM stack', () => {
  afterAll(async () => {
    await stackDown(config, log);
    fs.rmSync(runDir, { recursive: true, force: true });
  });

  it('refuses to start on a port held by someone else, naming the port', async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(config.ports.cassandraCql, '127.0.0.1', resolve));
    try {
      await expect(stackUp(config, log)).rejects.toThrow(new RegExp(`port ${config.ports.cassandraCql}.*already in use`));
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    expect(readRecord(config, 'cassandra')).toBeUndefined();
  });

  it('up twice is one stack; down leaves no process of ours behind', async () => {
    const first = await stackUp(config, log);
    expect(first.started).toEqual(['cassandra', 'kafka', 'registry']);
    const pids = LOCAL_SERVERS.map((s) => readRecord(config, s.name)!.pid);

    const second = await stackUp(config, log);
    expect(second.started).toEqual([]);
    expect(second.alreadyRunning).toEqual(['cassandra', 'kafka', 'registry']);
    expect(LOCAL_SERVERS.map((s) => readRecord(config, s.name)!.pid)).toEqual(pids);

    const status = await stackStatus(config);
    expect(status.map((s) => [s.server, s.state, s.ready])).toEqual([
      ['cassandra', 'running', true],
      ['kafka', 'running', true],
      ['registry', 'running', true],
    ]);

    await stackDown(config, log);
    for (const pid of pids) expect(pidAlive(pid)).toBe(false);
    for (const server of LOCAL_SERVERS) {
      for (const port of server.ports(config)) expect(await portOpen(port)).toBe(false);
    }
    expect((await stackStatus(config)).every((s) => s.state === 'stopped')).toBe(true);
  }, 300_000);

  it('reports and then discards a stale pid file', async () => {
    const record = { server: 'kafka', pid: 2 ** 22 + 17, marker: `-Dedgestream.stack=kafka@${runDir}`, logPath: '/nowhere', startedAt: '' };
    fs.mkdirSync(path.join(runDir, 'kafka'), { recursive: true });
    fs.writeFileSync(path.join(runDir, 'kafka', 'server.json'), JSON.stringify(record));
    expect(isOurProcess(record)).toBe(false);
    const status = await stackStatus(config);
    expect(status.find((s) => s.server === 'kafka')?.state).toBe('stale-pid-file');
    await stackDown(config, log);
    expect(readRecord(config, 'kafka')).toBeUndefined();
  });
});

describe('a server that dies during startup', () => {
  it('fails the start with the tail of its log and leaves no record behind', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-stack-dying-'));
    const dyingConfig = loadStackConfig({ ...process.env, EDGESTREAM_STACK_PORT_OFFSET: String(Number(process.env['EDGESTREAM_STACK_PORT_OFFSET'] ?? 0) + 600), EDGESTREAM_STACK_DIR: dir });
    // A real process that behaves like a JVM failing at boot: prints a reason, exits 1.
    const dying: LocalServer = {
      name: 'kafka',
      ports: () => [],
      prepare: async ({ marker }) => ({
        bin: process.execPath,
        args: ['-e', 'console.error("FATAL: cannot bind, giving up"); process.exit(1)', '--', marker],
      }),
      ready: async () => false,
    };
    try {
      const err = await stackUp(dyingConfig, log, [dying]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StackError);
      expect((err as StackError).code).toBe('START_FAILED');
      expect((err as StackError).message).toMatch(/kafka exited during startup[\s\S]*FATAL: cannot bind, giving up/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
