import { fmt } from '../ingest/stats.ts';
import type { LogProblem } from '../ingest/processorChild.ts';
import { resultHeader, type ResultContext } from '../shared/resultHeader.ts';
import type { HotBenchArgs } from './args.ts';
import type { HotSummary, PhaseFigures, RawPhaseFigures, VariantSummary } from './figures.ts';

const METHOD = {
  workload:
    'Per phase, --links ADD_EDGE events with distinct vertex ids (bench/hot/hotWorkload): hot = all from one source to distinct destinations (one input partition); spread = the same events from links / --fanout-degree sources (keyed by source, so over every partition). Edge times are a permutation unrelated to publish order. Phases alternate hot/spread, the first variant swapped every repeat.',
  pipeline: 'One `node bin/edgestream.js --config <run> run` child with PROCESSOR_NODE_FLAGS (every stage: fan-out, repair, recount, split chain, DLQ) on a fresh topic prefix and keyspace for the whole run; phases share them with distinct ids.',
  drain: 'First produce call → the fan-out group committed every event (bench/ingest/throughputPhase) and the repair group committed every record of the repair topic (bench/mixed/repairDrain). Produced as fast as the producer SDK goes, so the backlog builds and the drain is the pipeline rate.',
  cpu: 'bench/shared/measuredCpu over the drain: each process’s CPU seconds per link (µs); others = machine busy minus the named processes (other users of the box included).',
  check: 'After the drain, the sampled sources’ out-degree through the EdgeReader (the recounted degrees cell) polled until it equals what was published (timed from the drain), then each one’s newest-first page of --page-limit compared with the links of the newest edge times (one ADD per edge, so LWW keeps every link with its published time).',
  repairsDlq: 'Records the phase added to the repair and DLQ topics (end offsets before/after).',
  raw: 'The physical limit, in the same run: per repeat, cassandra-driver writes the rows of a hot source like the hot phase’s (own ids, one source, the same edge times, fresh event times) into a fresh keyspace with the store DDL, shaped as the pipeline sends them (bench/shared/rawIngest, the batched ceiling of bench:ingest): chunks of maxRecordsPerChunk events of the source’s input partition, per chunk one packed read of the current T_out[src][dst] (the exact index’s read before write), then the fan-out’s write waves (links, then index entries) batched as mutateMany batches them, --raw-chunks-in-flight chunks at once with 16 requests each; no Kafka, no degree intents or marks, no repair. Phase order per repeat: hot, spread, raw in odd repeats, raw, spread, hot in even ones. Rate = links ÷ (first request → last write acknowledged); CPU over the phase as for the drains.',
};

export function buildResult(o: ResultContext<HotBenchArgs> & { phases: readonly PhaseFigures[]; raw: readonly RawPhaseFigures[]; summary: HotSummary; pipeline: { warnings: number; errors: number; problems: readonly LogProblem[] } }) {
  return { ...resultHeader({ ...o, benchmark: 'hot', method: METHOD }), summary: o.summary, phases: o.phases, rawPhases: o.raw, pipeline: o.pipeline };
}

const row = (name: string, v: VariantSummary) =>
  `${name.padEnd(8)} ${fmt(v.linksPerSecond.median).padStart(9)} ${`${v.linksPerSecond.spreadPct}%`.padStart(7)}  ${v.linksPerSecond.repeats.map((x) => fmt(x)).join(' / ').padEnd(26)} ${String(v.drainSeconds.median).padStart(8)} ${String(v.countSettleSeconds.median).padStart(8)} ${String(v.cpuMicrosPerLink['processor']?.median ?? '—').padStart(9)} ${String(v.cpuMicrosPerLink['cassandra']?.median ?? '—').padStart(9)} ${String(v.cpuMicrosPerLink['kafka']?.median ?? '—').padStart(7)} ${String(v.repairs).padStart(7)} ${String(v.dlq).padStart(4)}  ${v.checksPassed}/${v.phases}`;

export function printSummary(r: ReturnType<typeof buildResult>): void {
  const out = (l = '') => process.stdout.write(`${l}\n`);
  const { summary: s } = r;
  out();
  out(`bench:hot — ${fmt(r.args.links)} links per phase; hot = 1 source, spread = ${fmt(r.phases.find((p) => p.variant === 'spread')?.sources ?? 0)} sources; ${r.args.repeats} repeats; ${r.machine.cores} cores; commit ${r.code.commit.slice(0, 12)}${r.code.cleanTree ? ' (clean tree)' : ' (tree NOT clean: not a committable result)'}`);
  out(`variant  links/s med  range%  every repeat               drain s  count s  proc µs/l  cass µs/l kafka µs repairs  dlq  checks`);
  out(row('hot', s.hot));
  out(row('spread', s.spread));
  if (s.raw) {
    const cpu = (name: string) => String(s.raw?.cpuMicrosPerLink[name]?.median ?? '—');
    out(`${'raw'.padEnd(8)} ${fmt(s.raw.linksPerSecond.median).padStart(9)} ${`${s.raw.linksPerSecond.spreadPct}%`.padStart(7)}  ${s.raw.linksPerSecond.repeats.map((x) => fmt(x)).join(' / ').padEnd(26)} ${'—'.padStart(8)} ${'—'.padStart(8)} ${`client ${cpu('bench')}`.padStart(9)} ${cpu('cassandra').padStart(9)} ${cpu('kafka').padStart(7)}    (the raw driver writing one source's rows in the pipeline's batch shape)`);
  }
  out(`hot / spread drain rate: median ${s.hotOverSpread.median} (every repeat ${s.hotOverSpread.repeats.join(', ')}; range ${s.hotOverSpread.spreadPct}%)`);
  if (s.hotOverRaw) out(`hot / raw (physical limit): median ${s.hotOverRaw.median} (every repeat ${s.hotOverRaw.repeats.join(', ')}; range ${s.hotOverRaw.spreadPct}%)`);
  const failed = r.phases.filter((p) => !p.repairsDrained || !p.check.countsSettled || p.check.pageMismatches > 0);
  for (const p of failed) out(`CHECK FAILED r${p.repeat} ${p.variant}: ${p.repairsDrained ? '' : 'repairs not drained; '}${p.check.countsSettled ? '' : 'counts not settled; '}${p.check.pageMismatches} page mismatches; ${p.check.examples.join('; ')}`);
  out(`pipeline: ${r.pipeline.warnings} warnings, ${r.pipeline.errors} errors logged by the processor child`);
  for (const p of r.pipeline.problems.slice(0, 5)) out(`  ${p.count} × ${p.level} "${p.msg}"`);
}
