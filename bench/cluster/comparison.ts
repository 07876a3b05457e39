import { acrossRepeats, pairedRatios, type AcrossRepeats } from '../ingest/stats.ts';
import type { StackChoice } from '../shared/stackChoice.ts';
import type { Figure } from './figures.ts';

/** The figures one child run measured: which stack, which repeat. */
export interface Observation {
  readonly stack: StackChoice;
  readonly repeat: number;
  readonly figures: readonly Figure[];
}

/** One figure on one stack over its repeats: the value, its reference and value ÷ reference of the same run. */
export interface StackSide {
  readonly value?: AcrossRepeats;
  readonly ref?: AcrossRepeats;
  readonly ratio?: AcrossRepeats;
}

export interface ComparisonRow {
  readonly key: string;
  readonly label: string;
  readonly unit: string;
  readonly single: StackSide;
  readonly cluster: StackSide;
  /** Cluster ÷ single of the same repeat (the cost of RF 3 and quorum on this machine), over the repeats both ran. */
  readonly clusterOverSingle?: AcrossRepeats;
}

const present = (a: AcrossRepeats): AcrossRepeats | undefined => (a.repeats.length > 0 ? a : undefined);

/** Repeat → the figure's value (or reference) on `stack`, for the runs that measured it. */
function byRepeat(observations: readonly Observation[], stack: StackChoice, key: string, pick: (f: Figure) => number | undefined): Map<number, number> {
  const out = new Map<number, number>();
  for (const o of observations) {
    if (o.stack !== stack) continue;
    const f = o.figures.find((x) => x.key === key);
    const v = f === undefined ? undefined : pick(f);
    if (v !== undefined && Number.isFinite(v)) out.set(o.repeat, v);
  }
  return out;
}

function side(observations: readonly Observation[], stack: StackChoice, key: string): StackSide {
  const values = byRepeat(observations, stack, key, (f) => f.value);
  const refs = byRepeat(observations, stack, key, (f) => f.ref);
  const sorted = (m: Map<number, number>) => [...m.entries()].sort(([a], [b]) => a - b).map(([, v]) => v);
  const value = present(acrossRepeats(sorted(values)));
  const ref = present(acrossRepeats(sorted(refs)));
  const ratio = present(pairedRatios(values, refs));
  return { ...(value ? { value } : {}), ...(ref ? { ref } : {}), ...(ratio ? { ratio } : {}) };
}

/**
 * Every figure of the observations, in the order first seen: on each stack its value, reference
 * and their ratio per run (medians over the repeats, every repeat kept), and cluster ÷ single
 * paired by repeat, so a repeat's two runs (back to back on the same machine) are compared
 * with each other and not with another repeat's.
 */
export function compareStacks(observations: readonly Observation[]): ComparisonRow[] {
  const rows = new Map<string, Figure>();
  for (const o of observations) for (const f of o.figures) if (!rows.has(f.key)) rows.set(f.key, f);
  return [...rows.values()].map((f) => {
    const clusterOverSingle = present(pairedRatios(byRepeat(observations, 'cluster', f.key, (x) => x.value), byRepeat(observations, 'single', f.key, (x) => x.value)));
    return { key: f.key, label: f.label, unit: f.unit, single: side(observations, 'single', f.key), cluster: side(observations, 'cluster', f.key), ...(clusterOverSingle ? { clusterOverSingle } : {}) };
  });
}
