import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'edgestream.js');

// Loaded by the child before the CLI: prints, at exit, every package it loaded from node_modules.
const RECORD_PACKAGES = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({ load(url, context, next) { const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(url); if (m) seen.add(m[1]); return next(url, context); } });
process.on('exit', () => process.stderr.write('PACKAGES ' + JSON.stringify([...seen]) + '\\n'));
`)}`;

async function packagesLoadedBy(args: readonly string[]): Promise<string[]> {
  const { stderr } = await exec(process.execPath, ['--import', RECORD_PACKAGES, BIN, ...args], { timeout: 60_000 });
  const line = stderr.split('\n').find((l) => l.startsWith('PACKAGES '));
  if (line === undefined) throw new Error(`no PACKAGES line on stderr: ${stderr}`);
  return JSON.parse(line.slice('PACKAGES '.length)) as string[];
}

// The CLI answers help (and flag errors) in ~0.1 s of CPU because each command loads its modules
// when it runs; one static import of a command module loads the clients again (seconds at each start).
describe('edgestream help loads commander only', () => {
  it.each(['--help', 'lag --help', 'out --help', 'run --help'])('%s', async (command) => {
    const loaded = await packagesLoadedBy(command.split(' '));
    expect(loaded).toContain('commander');
    expect(loaded.filter((p) => ['kafkajs', 'cassandra-driver', 'fastify', 'pino', 'testcontainers', '@kafkajs/confluent-schema-registry', 'zod'].includes(p))).toEqual([]);
  }, 60_000);
});
