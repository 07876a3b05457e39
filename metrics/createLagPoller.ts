import { Counter, type Registry } from 'prom-client';
import { snapshotGauge } from './snapshotMetrics.ts';

/** The lag of one consumer group on one topic, per partition (cli `groupLag` computes it). */
export interface StageLag {
  readonly stage: string;
  readonly group: string;
  readonly topic: string;
  readonly partitions: readonly { readonly partition: number; readonly lag: number }[];
}

export interface LagPollerOptions {
  /** One admin round trip for every group of the process (fetchOffsets against the topics' end offsets). */
  readonly poll: () => Promise<readonly StageLag[]>;
  readonly intervalMs: number;
  /** Told about a failed poll; the series keep the last successful poll (see the timestamp series). */
  readonly onError?: (error: unknown) => void;
  /** Wall clock, ms since the epoch. Default Date.now. */
  readonly clock?: () => number;
}

export interface LagPoller {
  /** Polls now, then every `intervalMs` after the previous poll finished, until `stop`. */
  start(): void;
  stop(): void;
  /** One poll (a failure is counted and reported, never thrown). */
  pollOnce(): Promise<void>;
}

/**
 * Consumer lag as Prometheus gauges, polled on a timer and served from the last
 * poll, so a scrape (or a storm of them) never reaches Kafka:
 * `edgestream_consumer_lag{stage,group,topic,partition}`,
 * `edgestream_repair_queue_depth{group}` (the repair stage's lag: records
 * waiting for a retry), the time of the last successful poll and failed polls.
 */
export function createLagPoller(registry: Registry, opts: LagPollerOptions): LagPoller {
  const clock = opts.clock ?? Date.now;
  let last: { readonly at: number; readonly lags: readonly StageLag[] } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running = false;

  snapshotGauge(registry, {
    name: 'edgestream_consumer_lag',
    help: 'Records of the partition not yet committed by the group (end offset − committed offset, from the last poll).',
    labelNames: ['stage', 'group', 'topic', 'partition'],
    read: () => (last?.lags ?? []).flatMap((g) => g.partitions.map((p) => ({ labels: { stage: g.stage, group: g.group, topic: g.topic, partition: p.partition }, value: p.lag }))),
  });
  snapshotGauge(registry, {
    name: 'edgestream_repair_queue_depth',
    help: 'Records in the repair topic not yet re-run (the repair group\'s lag, from the last poll).',
    labelNames: ['group'],
    read: () => (last?.lags ?? []).filter((g) => g.stage === 'repair').map((g) => ({ labels: { group: g.group }, value: g.partitions.reduce((n, p) => n + p.lag, 0) })),
  });
  snapshotGauge(registry, {
    name: 'edgestream_consumer_lag_polled_timestamp_seconds',
    help: 'When the lag series were last polled successfully, 0 before the first poll (alert when it falls behind).',
    labelNames: [],
    read: () => (last === undefined ? [] : [{ labels: {}, value: last.at / 1_000 }]),
  });
  const errors = new Counter({ name: 'edgestream_consumer_lag_poll_errors_total', help: 'Lag polls that failed (the series keep the previous poll).', registers: [registry] });

  const pollOnce = async () => {
    try {
      const lags = await opts.poll();
      last = { at: clock(), lags };
    } catch (e) {
      errors.inc();
      opts.onError?.(e);
    }
  };
  const schedule = () => {
    timer = setTimeout(() => void pollOnce().finally(() => running && schedule()), opts.intervalMs);
    timer.unref();
  };
  return {
    start() {
      if (running) return;
      running = true;
      void pollOnce().finally(() => running && schedule());
    },
    stop() {
      running = false;
      clearTimeout(timer);
    },
    pollOnce,
  };
}
