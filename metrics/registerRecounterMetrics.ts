import type { Registry } from 'prom-client';
import type { RecounterStats } from '../streams/runtime/index.ts';
import { snapshotCounter, snapshotGauge } from './snapshotMetrics.ts';

/** The degree recounter's rounds and targets, and the marks its last round took (at `marksPerRound`: a backlog). */
export function registerRecounterMetrics(registry: Registry, recounter: { stats(): RecounterStats }): void {
  snapshotCounter(registry, {
    name: 'edgestream_recount_rounds_total',
    help: 'Recount rounds, by outcome (failed: the round threw; its marks stay for the next one).',
    labelNames: ['outcome'],
    read: () => {
      const s = recounter.stats();
      return [
        { labels: { outcome: 'ok' }, value: s.rounds },
        { labels: { outcome: 'failed' }, value: s.failedRounds },
      ];
    },
  });
  snapshotCounter(registry, {
    name: 'edgestream_recount_targets_total',
    help: 'Degree counts recounted, by outcome (failed: its mark is kept for the next round).',
    labelNames: ['outcome'],
    read: () => {
      const s = recounter.stats();
      return [
        { labels: { outcome: 'recounted' }, value: s.recounted },
        { labels: { outcome: 'failed' }, value: s.failed },
      ];
    },
  });
  snapshotGauge(registry, {
    name: 'edgestream_recount_last_round_marks',
    help: 'Dirty marks the last recount round took (a round takes at most 10 000: there, counts fall behind).',
    labelNames: [],
    read: () => [{ labels: {}, value: recounter.stats().lastRoundMarks }],
  });
}
