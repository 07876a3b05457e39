import { acrossRepeats, pairedRatios, type AcrossRepeats } from './stats.ts';

/** One repeat's rates in events (edges) per second; a ceiling the repeat skipped is undefined. */
export interface RepeatRates {
  readonly repeat: number;
  readonly pipelineEdgesPerSecond: number;
  readonly batchedEdgesPerSecond: number | undefined;
  readonly unbatchedEdgesPerSecond: number | undefined;
}

export interface CeilingComparison {
  readonly pipelineEdgesPerSecond: AcrossRepeats;
  readonly batchedCeilingEdgesPerSecond: AcrossRepeats | undefined;
  readonly unbatchedCeilingEdgesPerSecond: AcrossRepeats | undefined;
  /** Pipeline ÷ ceiling of the same repeat (both ceilings write the pipeline's rows, so rows/s ratios are the same). */
  readonly pipelineOverBatched: AcrossRepeats | undefined;
  readonly pipelineOverUnbatched: AcrossRepeats | undefined;
}

/** Every repeat, median and range of the pipeline's and both ceilings' rates, and both ratios paired by repeat. */
export function ceilingComparison(rates: readonly RepeatRates[]): CeilingComparison {
  const byRepeat = (f: (x: RepeatRates) => number | undefined) => new Map(rates.flatMap((x) => (f(x) === undefined ? [] : [[x.repeat, f(x) as number] as const])));
  const pipeline = byRepeat((x) => x.pipelineEdgesPerSecond);
  const batched = byRepeat((x) => x.batchedEdgesPerSecond);
  const unbatched = byRepeat((x) => x.unbatchedEdgesPerSecond);
  const sorted = (m: Map<number, number>) => [...m.entries()].sort(([a], [b]) => a - b).map(([, v]) => v);
  const of = (m: Map<number, number>) => (m.size > 0 ? acrossRepeats(sorted(m), 0) : undefined);
  return {
    pipelineEdgesPerSecond: acrossRepeats(sorted(pipeline), 0),
    batchedCeilingEdgesPerSecond: of(batched),
    unbatchedCeilingEdgesPerSecond: of(unbatched),
    pipelineOverBatched: batched.size > 0 ? pairedRatios(pipeline, batched) : undefined,
    pipelineOverUnbatched: unbatched.size > 0 ? pairedRatios(pipeline, unbatched) : undefined,
  };
}
