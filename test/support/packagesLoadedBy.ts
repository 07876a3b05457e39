import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'edgestream.js');

// Loaded by the child before the CLI: prints, at exit, every package it loaded from node_modules.
const RECORD_PACKAGES = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({ load(url, context, next) { const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(url); if (m) seen.add(m[1]); return next(url, context); } });
process.on('exit', () => process.stderr.write('PACKAGES ' + JSON.stringify([...seen]) + '\\n'));
`)}`;

/** Runs `edgestream <args>` and returns the packages it loaded from node_modules (a failing command throws with its stderr). */
export async function packagesLoadedBy(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const { stderr } = await exec(process.execPath, ['--import', RECORD_PACKAGES, BIN, ...args], { timeout: 60_000, env });
  const line = stderr.split('\n').find((l) => l.startsWith('PACKAGES '));
  if (line === undefined) throw new Error(`no PACKAGES line on stderr: ${stderr}`);
  return JSON.parse(line.slice('PACKAGES '.length)) as string[];
}
