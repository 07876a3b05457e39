import type { Registry } from 'prom-client';
import type { RecounterStats } from '../streams/runtime/index.ts';
import { snapshotCounter, snapshotGauge } from './snapshotMetrics.ts';

/** The degree recounter's rounds and targets, the intents it counted after their hold, and the marks its last round took (at `marksPerRound`: a backlog). */
export function registerRecounterMetrics(registry: Registry, recounter: { stats(): RecounterStats }): void {
  const byOutcome = (name: string, help: string, outcomes: Record<string, (s: RecounterStats) => number>) =>
    snapshotCounter(registry, {
      name,
      help,
      labelNames: ['outcome'],
      read: () => {
        const stats = recounter.stats();
        return Object.entries(outcomes).map(([outcome, pick]) => ({ labels: { outcome }, value: pick(stats) }));
      },
    });
  byOutcome('edgestream_recount_rounds_total', 'Recount rounds, by outcome (failed: the round threw; its marks stay for the next one).', {
    ok: (s) => s.rounds,
    failed: (s) => s.failedRounds,
  });
  byOutcome('edgestream_recount_targets_total', 'Degree counts recounted (targets), and marks kept for the next round: unsettled (the count kept changing while it was counted, normal under ingest) or failed (a store error).', {
    recounted: (s) => s.recounted,
    unsettled: (s) => s.unsettled,
    failed: (s) => s.failed - s.unsettled,
  });
  snapshotCounter(registry, {
    name: 'edgestream_recount_stranded_intents_total',
    help: 'Intents counted after their hold: link ops whose attempt never wrote its follow-up marks (handed to repair, dead-lettered, or its process died); any link cell they landed is counted.',
    labelNames: [],
    read: () => [{ labels: {}, value: recounter.stats().strandedIntents }],
  });
  snapshotGauge(registry, {
    name: 'edgestream_recount_last_round_marks',
    help: 'Dirty marks the last recount round took (a round takes at most runtime.recountMarksPerRound, default 10 000: there, counts fall behind).',
    labelNames: [],
    read: () => [{ labels: {}, value: recounter.stats().lastRoundMarks }],
  });
}
