#!/usr/bin/env node
// bench:cluster — bench:ingest, bench:reads and bench:wide on the single-node stack and on the local
// 3-node cluster in the same run, alternating, with the cost of RF 3 and quorum per figure. See bench/cluster/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { codeVersion, machine, REPO_ROOT } from '../shared/benchEnvironment.ts';
import { openBenchStack, type BenchStack } from '../shared/benchStack.ts';
import { writeResultJson } from '../shared/writeResultJson.ts';
import type { StackChoice } from '../shared/stackChoice.ts';
import { parseClusterBenchArgs, USAGE, type ClusterBenchArgs } from './args.ts';
import { benchResidue } from './benchResidue.ts';
import { figuresOf } from './figures.ts';
import { localOnlyEnv } from './localOnly.ts';
import { buildClusterResult, printClusterSummary, type ChildRun, type Residue } from './report.ts';
import { runChild, type RunningChild } from './runChild.ts';
import { childArgv, childResultFile, repeatsOf, runPlan, type PlannedRun } from './runPlan.ts';

const say = (line: string) => process.stderr.write(`[bench:cluster] ${line}\n`);

async function main(): Promise<void> {
  const args = parseClusterBenchArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const env = localOnlyEnv(process.env);
  // The children inherit it: their single-node side is this local stack too.
  process.env['EDGESTREAM_STACK'] = env['EDGESTREAM_STACK'];
  const started = new Date();
  const plan = runPlan(args.benches, repeatsOf(args));
  say(`${plan.length} child runs: ${plan.map((p) => `${p.bench}/${p.stack}/r${p.repeat}`).join(', ')}`);

  let current: RunningChild | undefined;
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    say(`${signal}: stopping the child (it cleans up its run), then the stacks this run started`);
    current?.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const opened: Partial<Record<StackChoice, BenchStack>> = {};
  try {
    opened.single = await openBenchStack('single', { log: (l) => say(`[single] ${l}`), env });
    opened.cluster = await openBenchStack('cluster', { log: (l) => say(`[cluster] ${l}`), env });
    const stacks = { single: opened.single, cluster: opened.cluster };
    say(`single:  ${stacks.single.label.summary}`);
    say(`cluster: ${stacks.cluster.label.summary}`);
    const residueBefore = { single: await benchResidue(stacks.single), cluster: await benchResidue(stacks.cluster) };

    const runs: ChildRun[] = [];
    for (const [i, step] of plan.entries()) {
      if (interrupted) break;
      say(`── ${i + 1}/${plan.length}: ${step.bench} on the ${step.stack} stack, repeat ${step.repeat} ──`);
      const argv = childArgv(step, args);
      say(`node ${argv.join(' ')}`);
      const other: StackChoice = step.stack === 'single' ? 'cluster' : 'single';
      current = runChild(argv, stacks[other].serverPids());
      const exit = await current.exited;
      current = undefined;
      runs.push(childRun(step, args, argv, other, exit));
    }
    if (interrupted) {
      process.exitCode = 130;
      return;
    }
    const residue: Record<StackChoice, Residue> = {
      single: { before: residueBefore.single, after: await benchResidue(stacks.single) },
      cluster: { before: residueBefore.cluster, after: await benchResidue(stacks.cluster) },
    };
    const result = buildClusterResult({ args, started, machine: machine(), code: codeVersion(), stacks: { single: stacks.single.label, cluster: stacks.cluster.label }, runs, residue });
    printClusterSummary(result, (text) => process.stdout.write(text));
    say(`result JSON: ${writeResultJson(args.out, result)}; the children's in ${args.childrenDir}`);
    if (result.failed.length > 0) process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // Only what opening started is stopped: a stack that was already up stays up.
    await opened.cluster?.release();
    await opened.single?.release();
  }
}

/** A finished child: its exit, the idle stack's CPU meanwhile, and the figures of its result JSON. */
function childRun(step: PlannedRun, args: ClusterBenchArgs, argv: readonly string[], other: StackChoice, exit: Awaited<RunningChild['exited']>): ChildRun {
  const file = childResultFile(step, args.childrenDir);
  const cores = exit.watched.coresByProcess;
  const idleStack = { stack: other, coresByServer: cores, cores: Math.round(Object.values(cores).reduce((a, b) => a + b, 0) * 100) / 100, machineBusyCores: exit.watched.machineBusyCores };
  const base = { ...step, argv, file, seconds: exit.seconds, exitCode: exit.code, signal: exit.signal, idleStack };
  if (exit.code !== 0) return { ...base, figures: [], problem: exit.signal ? `killed by ${exit.signal}` : `exit ${exit.code}` };
  try {
    const result = JSON.parse(fs.readFileSync(path.resolve(REPO_ROOT, file), 'utf8')) as { code?: { commit: string; cleanTree: boolean } };
    return { ...base, ...(result.code ? { code: { commit: result.code.commit, cleanTree: result.code.cleanTree } } : {}), figures: figuresOf(step.bench, result) };
  } catch (e) {
    return { ...base, figures: [], problem: `result ${file} unreadable: ${e instanceof Error ? e.message : String(e)}` };
  }
}

main().catch((e: unknown) => {
  console.error(`bench:cluster failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
});
