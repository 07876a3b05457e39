import { acrossRepeats, pairedRatios, round, type AcrossRepeats } from '../ingest/stats.ts';
import type { PhaseCpu } from '../shared/measuredCpu.ts';
import type { SourceCheck } from './sourceCheck.ts';

export type Variant = 'hot' | 'spread';

/** What one phase (one variant in one repeat) measured. */
export interface PhaseFigures {
  readonly variant: Variant;
  readonly repeat: number;
  readonly links: number;
  readonly sources: number;
  /** First produce → fan-out group committed the last event and the repair group drained its topic. */
  readonly drainSeconds: number;
  readonly linksPerSecond: number;
  /** First produce → the fan-out group committed the last event (repairs not yet drained). */
  readonly fanOutSeconds: number;
  readonly produceLinksPerSecond: number;
  readonly peakBacklog: number;
  /** Records this phase added to the repair and DLQ topics. */
  readonly repairs: number;
  readonly dlq: number;
  readonly repairsDrained: boolean;
  readonly cpu: PhaseCpu;
  readonly check: SourceCheck;
}

/** What the raw phase of one repeat measured: the hot source's rows with the raw driver (bench/shared/rawIngest). */
export interface RawPhaseFigures {
  readonly repeat: number;
  readonly links: number;
  readonly seconds: number;
  readonly linksPerSecond: number;
  readonly chunksInFlight: number;
  readonly readRequests: number;
  readonly writeRequests: number;
  readonly cpu: PhaseCpu;
}

/** CPU µs each process spent per link over a drain: average cores × wall seconds / links. */
export function cpuMicrosPerLink(cpu: Pick<PhaseCpu, 'wallSeconds' | 'coresByProcess' | 'otherCores'>, links: number): Record<string, number> {
  const per = (cores: number) => round((cores * cpu.wallSeconds * 1e6) / links, 1);
  return { ...Object.fromEntries(Object.entries(cpu.coresByProcess).map(([name, cores]) => [name, per(cores)])), others: per(cpu.otherCores) };
}

export interface VariantSummary {
  readonly phases: number;
  readonly linksPerSecond: AcrossRepeats;
  readonly drainSeconds: AcrossRepeats;
  readonly countSettleSeconds: AcrossRepeats;
  /** Median over the repeats of each process's CPU µs per link. */
  readonly cpuMicrosPerLink: Record<string, AcrossRepeats>;
  readonly repairs: number;
  readonly dlq: number;
  /** Phases whose counts all settled, pages all matched and repairs drained. */
  readonly checksPassed: number;
}

export interface RawSummary {
  readonly phases: number;
  readonly linksPerSecond: AcrossRepeats;
  readonly cpuMicrosPerLink: Record<string, AcrossRepeats>;
}

export interface HotSummary {
  readonly hot: VariantSummary;
  readonly spread: VariantSummary;
  /** The raw driver writing the hot source's rows in the same run: the physical limit (undefined when skipped). */
  readonly raw: RawSummary | undefined;
  /** Hot drain rate over the spread drain rate of the same repeat (1 = the hot source costs nothing extra). */
  readonly hotOverSpread: AcrossRepeats;
  /** Hot drain rate over the raw rate of the same repeat (1 = the pipeline drains a hot source as fast as the raw driver writes it). */
  readonly hotOverRaw: AcrossRepeats | undefined;
}

const passed = (p: PhaseFigures) => p.repairsDrained && p.check.countsSettled && p.check.pageMismatches === 0;

/** Each process's CPU µs per link, every repeat with median and range. */
function cpuAcrossRepeats(phases: readonly Pick<PhaseFigures, 'cpu' | 'links'>[]): Record<string, AcrossRepeats> {
  const perLink = phases.map((p) => cpuMicrosPerLink(p.cpu, p.links));
  const processes = [...new Set(perLink.flatMap((c) => Object.keys(c)))];
  return Object.fromEntries(processes.map((name) => [name, acrossRepeats(perLink.map((c) => c[name] ?? 0), 1)]));
}

function summariseVariant(phases: readonly PhaseFigures[]): VariantSummary {
  return {
    phases: phases.length,
    linksPerSecond: acrossRepeats(phases.map((p) => p.linksPerSecond), 0),
    drainSeconds: acrossRepeats(phases.map((p) => p.drainSeconds)),
    countSettleSeconds: acrossRepeats(phases.map((p) => p.check.countSettleSeconds)),
    cpuMicrosPerLink: cpuAcrossRepeats(phases),
    repairs: phases.reduce((s, p) => s + p.repairs, 0),
    dlq: phases.reduce((s, p) => s + p.dlq, 0),
    checksPassed: phases.filter(passed).length,
  };
}

/** Per variant and for the raw phases: every repeat, median and range; and hot ÷ spread and hot ÷ raw, paired by repeat. */
export function summarise(phases: readonly PhaseFigures[], raw: readonly RawPhaseFigures[] = []): HotSummary {
  const of = (v: Variant) => phases.filter((p) => p.variant === v).sort((a, b) => a.repeat - b.repeat);
  const rate = (xs: readonly { repeat: number; linksPerSecond: number }[]) => new Map(xs.map((p) => [p.repeat, p.linksPerSecond]));
  const rawSorted = [...raw].sort((a, b) => a.repeat - b.repeat);
  return {
    hot: summariseVariant(of('hot')),
    spread: summariseVariant(of('spread')),
    raw: raw.length ? { phases: raw.length, linksPerSecond: acrossRepeats(rawSorted.map((p) => p.linksPerSecond), 0), cpuMicrosPerLink: cpuAcrossRepeats(rawSorted) } : undefined,
    hotOverSpread: pairedRatios(rate(of('hot')), rate(of('spread'))),
    hotOverRaw: raw.length ? pairedRatios(rate(of('hot')), rate(raw)) : undefined,
  };
}
