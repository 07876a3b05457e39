import type { Registry } from 'prom-client';
import type { RuntimeMetricsSnapshot } from '../streams/runtime/index.ts';
import { snapshotCounter } from './snapshotMetrics.ts';

/** A consuming stage of a process and its runtime counters (streams/runtime Runner.metrics). */
export interface StageRuntime {
  readonly stage: string;
  metrics(): RuntimeMetricsSnapshot;
}

/**
 * The runtime counters of every consuming stage, read from the runners'
 * snapshots at scrape time: events by outcome, DLQ records by reason, store
 * mutations, retries, emitted events and re-delivered chunks, each labelled `stage`.
 */
export function registerRuntimeMetrics(registry: Registry, stages: readonly StageRuntime[]): void {
  const perStage = (name: string, help: string, pick: (s: RuntimeMetricsSnapshot) => number) =>
    snapshotCounter(registry, { name, help, labelNames: ['stage'], read: () => stages.map((s) => ({ labels: { stage: s.stage }, value: pick(s.metrics()) })) });

  snapshotCounter(registry, {
    name: 'edgestream_events_total',
    help: 'Records consumed, settled and committed, by outcome: done (all writes landed), repair (handed to the repair topic), dead_letter (parked in the DLQ).',
    labelNames: ['stage', 'outcome'],
    read: () =>
      stages.flatMap((s) => {
        const m = s.metrics();
        const dead = Object.values(m.deadLettered).reduce((n, v) => n + (v ?? 0), 0);
        return [
          { labels: { stage: s.stage, outcome: 'done' }, value: m.done },
          { labels: { stage: s.stage, outcome: 'repair' }, value: m.sentToRepair },
          { labels: { stage: s.stage, outcome: 'dead_letter' }, value: dead },
        ];
      }),
  });
  snapshotCounter(registry, {
    name: 'edgestream_dlq_records_total',
    help: 'Records this process parked in the DLQ, by reason (the edgestream-dlq-reason header).',
    labelNames: ['stage', 'reason'],
    read: () => stages.flatMap((s) => Object.entries(s.metrics().deadLettered).map(([reason, n]) => ({ labels: { stage: s.stage, reason }, value: n ?? 0 }))),
  });
  perStage('edgestream_chunks_total', 'Chunks settled and committed; edgestream_events_total over this is the records a chunk carried (runtime.inputFetch batches a light input).', (m) => m.chunks);
  perStage('edgestream_store_mutations_total', 'Mutations handed to the store (after link-cache suppression).', (m) => m.mutations);
  perStage('edgestream_retries_total', 'Back-offs slept by read, write and emit retries.', (m) => m.retries);
  perStage('edgestream_emitted_events_total', 'Events published by the stage (cascade events, chain events).', (m) => m.emitted);
  perStage('edgestream_forwarded_records_total', "Records found outside their routing key's partition and forwarded to it (link ops keyed otherwise than by src).", (m) => m.forwarded);
  perStage('edgestream_batch_retries_total', 'Chunks re-delivered because a repair/DLQ hand-off failed or the schema registry was down.', (m) => m.batchRetries);
}
