import type { KafkaAdmin } from '../../streams/kafka/index.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { Recounter } from '../../streams/runtime/index.ts';
import { edgePipelineGroups, type EdgePipelineStage } from '../../streams/topology/createEdgePipeline.ts';
import { groupsLag } from '../commands/lag.ts';

export interface PipelineQuiet {
  readonly seconds: number;
  /** False when `maxMs` ran out first; `lag` and `recountMarks` then say what was still busy. */
  readonly quiet: boolean;
  /** Consumer lag summed over the stages' groups (default every one: fan-out, repair, cascade, planner, splitter, verifier). */
  readonly lag: number;
  /** Degree marks the recounter's last finished round took (0 = nothing left to recount). */
  readonly recountMarks: number | undefined;
}

/**
 * Waits until the in-process pipeline has nothing left to do: every consumer
 * group (of `stages`, default all) has committed up to its topic's end (so no
 * fan-out, repair, cascade or chain work is in flight) and, when given, the
 * recounter has finished a round, started after this wait began, that found no marks.
 */
export async function waitForQuietPipeline(admin: KafkaAdmin, config: EdgestreamConfig, o: { stages?: readonly EdgePipelineStage[]; recounter?: Recounter; maxMs: number; onBusy?: (text: string) => void }): Promise<PipelineQuiet> {
  const t0 = performance.now();
  const groups = edgePipelineGroups(config).filter((g) => o.stages === undefined || o.stages.includes(g.stage));
  const roundsAtStart = o.recounter?.stats().rounds ?? 0;
  for (;;) {
    const lags = await groupsLag(admin, groups);
    const lag = lags.reduce((n, l) => n + l.lag, 0);
    const stats = o.recounter?.stats();
    // Two rounds: the one in flight when the wait began may have started before the last write.
    const recountIdle = stats === undefined || (stats.rounds >= roundsAtStart + 2 && stats.lastRoundMarks === 0);
    const seconds = Math.round((performance.now() - t0) / 100) / 10;
    const result = { seconds, lag, recountMarks: stats?.lastRoundMarks };
    if (lag === 0 && recountIdle) return { ...result, quiet: true };
    if (performance.now() - t0 > o.maxMs) return { ...result, quiet: false };
    const busy = lags.filter((l) => l.lag > 0).map((l) => `${l.group} lag ${l.lag}`);
    if (!recountIdle) busy.push(`recounter ${stats?.lastRoundMarks ?? 0} marks in its last round`);
    o.onBusy?.(busy.join(', '));
    await new Promise((r) => setTimeout(r, 500));
  }
}
