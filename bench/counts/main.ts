#!/usr/bin/env node
// bench:counts — staleness and read cost of a celebrity's degree count, full vs delta recounter. See bench/counts/README.md.
import fs from 'node:fs';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import { connectBenchClients } from '../shared/benchClients.ts';
import { resolveStack } from '../../stack/resolveStack.ts';
import type { RecountMode } from '../../streams/runtime/index.ts';
import { createStatusLine } from '../ingest/progressLine.ts';
import { fmt } from '../ingest/stats.ts';
import { codeVersion, collectVersions, machine, REPO_ROOT } from '../shared/benchEnvironment.ts';
import { followEvent, type Celebrity } from '../wide/celebrityWorkload.ts';
import { loadMutations } from '../wide/loadPhase.ts';
import { createReverseRows } from '../wide/reverseRows.ts';
import { createWideRun, newRunId } from '../wide/wideRun.ts';
import { DEFAULT_FOLLOWERS, parseCountsArgs, USAGE } from './args.ts';
import { rawCountBaseline, type RawCountBaseline } from './rawCountBaseline.ts';
import { runCountsPhase, type PhaseResult } from './countsPhase.ts';
import { createCountsStream } from './countsStream.ts';

const EDGE_TYPE = 'follows';
const status = createStatusLine();
const say = (line: string) => status.log(line);

async function main(): Promise<void> {
  const args = parseCountsArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const started = new Date();
  say(`bench:counts — celebrity with ${fmt(args.followers)} followers, ${args.rate} follows+unfollows/s, Zipf background ${args.backgroundRate}/s over ${fmt(args.users)} users; ${args.repeats}× (full, delta) phases of ${args.phaseSeconds} s`);
  const stack = await resolveStack({ log: (l) => say(`[stack] ${l}`), keepRunning: false });
  const { endpoints } = stack;
  const { registry, admin } = await connectBenchClients(endpoints, 'edgestream-bench-counts');
  await admin.connect();
  const cql = new cassandra.Client({ contactPoints: [...endpoints.cassandraContactPoints], localDataCenter: endpoints.cassandraLocalDc });
  await cql.connect();
  const versions = await collectVersions(endpoints, cql);
  const code = codeVersion();
  say(`code: ${code.commit.slice(0, 12)}${code.dirtyOutsideBench.length ? ` + uncommitted changes in ${code.dirtyOutsideBench.join(', ')}` : ''}`);
  const run = await createWideRun({ admin, registry, endpoints, id: newRunId(), configInput: { edgeTypes: [{ name: EDGE_TYPE }], runtime: { recountIntervalMs: args.intervalMs } }, log: say });
  try {
    const celebrity: Celebrity = { label: 'A', id: 'celebrity-a', edgeType: EDGE_TYPE, links: args.followers, removeRatio: 0, seed: args.seed, baseTime: BigInt(Date.now() - 86_400_000) * 1000n };
    const rows = createReverseRows(EDGE_TYPE);
    const load = await loadMutations({
      store: run.store,
      events: (function* () {
        for (let i = 0; i < args.followers; i++) yield rows(followEvent(celebrity, i));
      })(),
      total: args.followers,
      batch: args.loadBatch,
      concurrency: args.loadConcurrency,
      status,
      label: 'load followers',
    });
    status.done(`loaded ${fmt(load.events)} followers in ${load.seconds} s (no marks: the first round of each mode counts them from one mark)`);
    const stream = createCountsStream({ store: run.store, celebrity, followers: args.followers, rate: args.rate, backgroundRate: args.backgroundRate, users: args.users, seed: args.seed });
    await stream.run(1); // at least one mark on the celebrity before the first warm-up
    const phases: PhaseResult[] = [];
    const raw: RawCountBaseline[] = [];
    for (let i = 0; i < args.repeats; i++) {
      for (const mode of ['full', 'delta'] satisfies RecountMode[]) {
        phases.push(await runCountsPhase({ store: run.store, mode, celebrity, stream, seconds: args.phaseSeconds, intervalMs: args.intervalMs, say }));
      }
      // The physical limit, on the same partition after each repeat's phases (the stream is paused then).
      const r = await rawCountBaseline(cql, run.config.cassandra.keyspace, EDGE_TYPE, celebrity.id);
      raw.push(r);
      say(`[raw] cassandra-driver: every link cell of ${celebrity.id} in ${r.fullReadSeconds} s (${fmt(r.fullReadRows)} rows, ${fmt(r.activeLinks)} ACTIVE); count point read p50 ${r.countPointReadMs} ms`);
    }
    const result = {
      bench: 'counts',
      started: started.toISOString(),
      args,
      commit: code.commit,
      cleanTree: code.dirtyOutsideBench.length === 0,
      dirtyOutsideBench: code.dirtyOutsideBench,
      cores: machine().cores,
      machine: machine(),
      versions,
      load: { followers: load.events, seconds: load.seconds },
      stream: stream.stats(),
      phases,
      /** rows read per round ÷ the raw full read's rows: 1 is a full recount's physical limit. */
      raw,
      rowsPerRound_vs_rawFullRead: phases.map((p) => ({ mode: p.mode, ratio: Math.round((p.rowsReadPerRound.p50 / (raw[0]?.fullReadRows ?? NaN)) * 10_000) / 10_000 })),
      exact: phases.every((p) => p.finalCount === String(p.finalTruth)),
    };
    const out = path.resolve(REPO_ROOT, args.out ?? (args.followers >= DEFAULT_FOLLOWERS ? 'bench/results/counts-latest.json' : 'bench/results/counts-small.json'));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    say(`result JSON: ${path.relative(REPO_ROOT, out)}; counts exact once quiet in every phase: ${result.exact}`);
    if (!result.exact) process.exitCode = 1;
  } finally {
    if (args.keep) {
      await run.store.close(); // an open Cassandra session would keep the process from exiting
      say(`--keep: keyspace ${run.config.cassandra.keyspace} left in place`);
    } else await run.cleanup();
    await admin.disconnect().catch(() => undefined);
    await cql.shutdown().catch(() => undefined);
    await stack.release();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
