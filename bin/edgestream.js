#!/usr/bin/env -S node --max-semi-space-size=64
// The flags: cli/processorNodeFlags.ts (young generation sized for the write path).
// The `edgestream` command: Node runs the TypeScript sources as they are (type stripping, no build step).
// On an older Node (the system's, when this file is run directly rather than through npm, which puts
// node_modules/.bin first on PATH), it re-runs itself on the Node that `npm ci` installed (package.json).
import { existsSync } from 'node:fs';
import module from 'node:module';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const REQUIRED_MAJOR = 24;

if (Number(process.versions.node.split('.')[0]) < REQUIRED_MAJOR) {
  const projectNode = fileURLToPath(import.meta.resolve('../node_modules/.bin/node'));
  if (!existsSync(projectNode)) {
    process.stderr.write(`edgestream: needs Node ${REQUIRED_MAJOR} (this is ${process.version}); run \`npm ci\` in ${fileURLToPath(import.meta.resolve('..'))} to install it\n`);
    process.exit(1);
  }
  const { spawn } = await import('node:child_process'); // only here: it loads net, stream and dgram
  // The flag: the warning kafkajs causes on Node 24 (see .npmrc, which covers runs through npm).
  const child = spawn(projectNode, ['--disable-warning=TimeoutNegativeWarning', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
} else {
  // Caches compiled code (and stripped TypeScript) in the OS temp dir: later starts skip that work.
  module.enableCompileCache?.();
  await import('../cli/main.ts');
}
