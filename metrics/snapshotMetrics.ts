import { Counter, Gauge, type Registry } from 'prom-client';

/** One series: its label values and its current value. */
export interface LabelledValue<L extends string> {
  readonly labels: Partial<Record<L, string | number>>;
  readonly value: number;
}

export interface SnapshotMetricSpec<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  /** Every series' value now, read at each scrape: must be cheap (in-memory counters, a cached poll). */
  readonly read: () => Iterable<LabelledValue<L>>;
}

/**
 * A counter whose values are read at scrape time from counters the code keeps
 * anyway (a runtime's snapshot, a cache's stats), so the hot path pays
 * nothing for metrics. `read` must return monotonic values per series.
 */
export function snapshotCounter<L extends string>(registry: Registry, spec: SnapshotMetricSpec<L>): Counter<L> {
  return new Counter<L>({ ...configOf(registry, spec), collect() { refill(this, spec, (labels, value) => this.inc(labels, value)); } });
}

/** A gauge whose series are exactly what `read` returns at scrape time (a series it stops returning disappears). */
export function snapshotGauge<L extends string>(registry: Registry, spec: SnapshotMetricSpec<L>): Gauge<L> {
  return new Gauge<L>({ ...configOf(registry, spec), collect() { refill(this, spec, (labels, value) => this.set(labels, value)); } });
}

const configOf = <L extends string>(registry: Registry, spec: SnapshotMetricSpec<L>) => ({ name: spec.name, help: spec.help, labelNames: spec.labelNames, registers: [registry] });

/** Drops every series and writes what `read` returns now (collect runs synchronously within one scrape). */
function refill<L extends string>(metric: { reset(): void }, spec: SnapshotMetricSpec<L>, put: (labels: LabelledValue<L>['labels'], value: number) => void): void {
  metric.reset();
  for (const { labels, value } of spec.read()) put(labels, value);
}
