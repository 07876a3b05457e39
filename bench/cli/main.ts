#!/usr/bin/env node
// bench:cli — wall time from spawn to exit of `edgestream <command>` (the CLI's start time) and its CPU, every repeat and the medians.
// Flags: --repeats <n> (default 10), --node <path> and --bin <path> (time another runtime or checkout), --no-stack (help only).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { connectBenchClients } from '../shared/benchClients.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { resolveStack } from '../../stack/resolveStack.ts';
import { edgePipelineGroups } from '../../streams/topology/edgePipelineGroups.ts';
import { createBenchRun, newRunId } from '../ingest/benchRun.ts';
import { round } from '../ingest/stats.ts';
import { codeVersion, machine, REPO_ROOT } from '../shared/benchEnvironment.ts';
import { intFlag } from '../shared/intFlag.ts';
import { writeResultJson } from '../shared/writeResultJson.ts';
import { timeCase, type CaseTimes, type CliCase } from './startTimes.ts';

const HELP_CASES: readonly CliCase[] = [
  // The floor, in the same run: what starting Node itself costs here, before any of the CLI's code.
  { label: 'node -e 0 (a bare Node start)', args: ['-e', '0'], nodeOnly: true },
  { label: '--help', args: ['--help'] },
  { label: 'init --help', args: ['init', '--help'] },
  { label: 'lag --help', args: ['lag', '--help'] },
  { label: 'out --help', args: ['out', '--help'] },
  { label: 'run --help', args: ['run', '--help'] },
];

function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i < 0 ? undefined : argv[i + 1];
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const repeats = intFlag('repeats', flag(argv, 'repeats'), 10, 1, 1000);
  const node = flag(argv, 'node') ?? process.execPath;
  const bin = path.resolve(flag(argv, 'bin') ?? path.join(REPO_ROOT, 'bin/edgestream.js'));
  const withStack = !argv.includes('--no-stack');
  const runtime = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const code = codeVersion();
  const m = machine();
  console.log(`bench:cli — ${bin} on Node ${runtime}; code ${code.commit.slice(0, 12)}${code.cleanTree ? '' : ` (tree not clean: ${code.dirtyOutsideBench.join(', ')})`}; ${m.cores} cores (${m.cpuModel}), load ${m.loadAverage.join(' ')}; ${repeats} repeats after a first run`);

  const results: CaseTimes[] = [];
  const floors: { command: string; floor: string; overFloorMs: number; cpuOverFloorMs: number }[] = [];
  const report = (c: CaseTimes): CaseTimes => {
    results.push(c);
    console.log(`${c.label.padEnd(36)} wall median ${round(c.medianMs)} ms (first ${round(c.firstMs)}; repeats ${c.repeatsMs.map((x) => round(x)).join(' ')})   CPU median ${c.medianCpuMs} ms (repeats ${c.repeatsCpuMs.join(' ')})`);
    return c;
  };
  for (const c of HELP_CASES) report(timeCase({ node, bin, cwd: REPO_ROOT, env: process.env, repeats, case: c }));
  // The physical floor of a CLI start on this machine, measured in this run: a bare Node start.
  const floor = results[0] as CaseTimes;

  if (withStack) {
    const stack = await resolveStack({ log: (l) => console.log(`[stack] ${l}`), keepRunning: true });
    const { registry, admin } = await connectBenchClients(stack.endpoints, 'edgestream-bench-cli');
    await admin.connect();
    const run = await createBenchRun({ admin, registry, endpoints: stack.endpoints, id: newRunId('c'), configInput: { edgeTypes: [{ name: 'follows' }] }, log: console.log });
    try {
      const env = { ...process.env, ...endpointsToEnv(stack.endpoints), LOG_LEVEL: 'warn' };
      const floorScript = (name: string) => path.join(REPO_ROOT, 'bench/cli/floors', name);
      // Each networked command beside its floor, in this run: the same answer from the same client with nothing of
      // edgestream's (load the client, connect, the requests the answer needs), so the difference is the CLI's own start.
      const pairs: [CliCase, CliCase][] = [
        [
          { label: 'lag --json (Kafka admin)', args: ['--config', run.configFile, 'lag', '--json'] },
          { label: 'floor of lag: kafkajs alone, same requests', nodeOnly: true, args: [floorScript('lagFloor.mjs'), stack.endpoints.kafkaBrokers.join(','), ...edgePipelineGroups(run.config).map((g) => `${g.group}=${g.topic}`)] },
        ],
        [
          { label: 'count follows v1 --json (Cassandra)', args: ['--config', run.configFile, 'count', 'follows', 'v1', '--json'] },
          { label: 'floor of count: cassandra-driver alone, same reads', nodeOnly: true, args: [floorScript('countFloor.mjs'), stack.endpoints.cassandraContactPoints[0] ?? '', stack.endpoints.cassandraLocalDc, run.config.cassandra.keyspace, 'v1', 'follows', 'out', 'in'] },
        ],
      ];
      for (const [command, commandFloor] of pairs) {
        const c = report(timeCase({ node, bin, cwd: REPO_ROOT, env, repeats, case: command }));
        const f = report(timeCase({ node, bin, cwd: REPO_ROOT, env, repeats, case: commandFloor }));
        floors.push({ command: c.label, floor: f.label, overFloorMs: round(c.medianMs - f.medianMs), cpuOverFloorMs: c.medianCpuMs - f.medianCpuMs });
      }
    } finally {
      await run.cleanup();
      await admin.disconnect().catch(() => undefined);
      await stack.release();
    }
  }
  const out = flag(argv, 'out') ?? 'bench/results/cli-latest.json';
  console.log(`result JSON: ${writeResultJson(out, { benchmark: 'cli', date: new Date().toISOString(), machine: m, node: runtime, bin: path.relative(REPO_ROOT, bin), code, repeats, baseline: floor, results: results.map((r) => ({ ...r, wallOverBaseline: round(r.medianMs / floor.medianMs) })), floors })}`);
  for (const f of floors) console.log(`${f.command}: ${f.overFloorMs} ms wall (${f.cpuOverFloorMs} ms CPU) over its floor`);
}

main().catch((e: unknown) => {
  console.error(`bench:cli: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
