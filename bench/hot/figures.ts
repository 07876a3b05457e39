import { acrossRepeats, round, type AcrossRepeats } from '../ingest/stats.ts';
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

export interface HotSummary {
  readonly hot: VariantSummary;
  readonly spread: VariantSummary;
  /** Hot drain rate over the spread drain rate of the same repeat (1 = the hot source costs nothing extra). */
  readonly hotOverSpread: AcrossRepeats;
}

const passed = (p: PhaseFigures) => p.repairsDrained && p.check.countsSettled && p.check.pageMismatches === 0;

function summariseVariant(phases: readonly PhaseFigures[]): VariantSummary {
  const perLink = phases.map((p) => cpuMicrosPerLink(p.cpu, p.links));
  const processes = [...new Set(perLink.flatMap((c) => Object.keys(c)))];
  return {
    phases: phases.length,
    linksPerSecond: acrossRepeats(phases.map((p) => p.linksPerSecond), 0),
    drainSeconds: acrossRepeats(phases.map((p) => p.drainSeconds)),
    countSettleSeconds: acrossRepeats(phases.map((p) => p.check.countSettleSeconds)),
    cpuMicrosPerLink: Object.fromEntries(processes.map((name) => [name, acrossRepeats(perLink.map((c) => c[name] ?? 0), 1)])),
    repairs: phases.reduce((s, p) => s + p.repairs, 0),
    dlq: phases.reduce((s, p) => s + p.dlq, 0),
    checksPassed: phases.filter(passed).length,
  };
}

/** Per variant: every repeat, median and spread; and the hot/spread ratio of drain rates, paired by repeat. */
export function summarise(phases: readonly PhaseFigures[]): HotSummary {
  const of = (v: Variant) => phases.filter((p) => p.variant === v).sort((a, b) => a.repeat - b.repeat);
  const hot = of('hot');
  const spread = new Map(of('spread').map((p) => [p.repeat, p]));
  const ratios = hot.flatMap((h) => {
    const s = spread.get(h.repeat);
    return s ? [h.linksPerSecond / s.linksPerSecond] : [];
  });
  return { hot: summariseVariant(hot), spread: summariseVariant(of('spread')), hotOverSpread: acrossRepeats(ratios, 3) };
}
