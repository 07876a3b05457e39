import type { KafkaAdmin } from '../../streams/kafka/index.ts';
import { groupLag, type GroupLag } from '../../cli/commands/lag.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { DEGREE_DIRTY_NAMESPACE, degreeDirtyShards } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';

export interface QuiescenceOptions {
  readonly admin: KafkaAdmin;
  readonly config: EdgestreamConfig;
  readonly store: TwoLevelMapStore;
  /**
   * Runs one recount round (e.g. `pipeline.recounter.runOnce`). Called once the
   * consumer groups are caught up and marks are still there; without it the
   * pipeline's own recounter (in this process or a child) must take the marks.
   */
  readonly recount?: () => Promise<unknown>;
  readonly timeoutMs?: number;
  readonly pollMs?: number;
  /** Consecutive quiet polls required. Default 2. */
  readonly quietPolls?: number;
}

export interface Quiescence {
  readonly waitedMs: number;
  readonly polls: number;
  readonly recountRounds: number;
}

/**
 * Waits until the write path of `config` has nothing left to do:
 *
 * 1. the cascade group has committed the input topic's log end (every
 *    REMOVE_NODE's cascade events are published: the runner publishes with
 *    acks=all before it commits),
 * 2. then the fan-out group has committed the log end, which now includes
 *    those cascade events (and anything handed to the repair topic was
 *    published before the commit),
 * 3. then the repair group has committed its topic's log end (a repair that
 *    fails again is re-published before the commit),
 * 4. then no `degree_dirty` mark is left: every mark was taken by a recount
 *    round that started after it was written and has written its counts
 *    (a round deletes only the marks it read, after writing).
 *
 * The checks run in that order, downstream after upstream, so one pass that
 * sees all four is a consistent "nothing in flight"; `quietPolls` passes in a
 * row are required anyway. Lag is computed like `edgestream lag`
 * (cli/commands/lag.ts groupLag): high watermark minus committed offset, a
 * group without a commit counting from the low watermark.
 */
export async function waitForQuiescence(opts: QuiescenceOptions): Promise<Quiescence> {
  const { admin, config, store } = opts;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const pollMs = opts.pollMs ?? 200;
  const quietPolls = opts.quietPolls ?? 2;
  const groups = edgePipelineGroups(config);
  const byStage = (stage: string) => {
    const g = groups.find((x) => x.stage === stage);
    if (g === undefined) throw new Error(`no ${stage} group in edgePipelineGroups`);
    return g;
  };
  const order = [byStage('cascade'), byStage('fanout'), byStage('repair')];
  const started = Date.now();
  let polls = 0;
  let quiet = 0;
  let recountRounds = 0;
  let last: { lags: GroupLag[]; marks: number } | undefined;
  while (true) {
    polls++;
    const lags: GroupLag[] = [];
    for (const g of order) lags.push(await groupLag(admin, g.group, g.topic));
    const caughtUp = lags.every((l) => l.lag === 0);
    let marks = caughtUp ? await countMarks(store) : -1;
    if (caughtUp && marks > 0 && opts.recount) {
      await opts.recount();
      recountRounds++;
      marks = await countMarks(store);
    }
    last = { lags, marks };
    quiet = caughtUp && marks === 0 ? quiet + 1 : 0;
    if (quiet >= quietPolls) return { waitedMs: Date.now() - started, polls, recountRounds };
    if (Date.now() - started > timeoutMs) {
      const state = last.lags.map((l) => `${l.group}: lag ${l.lag}`).join(', ');
      throw new Error(`no quiescence after ${timeoutMs} ms: ${state}; degree_dirty marks ${last.marks < 0 ? '(not checked)' : last.marks}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** `degree_dirty` marks left (counted up to 1000 per shard). */
export async function countMarks(store: TwoLevelMapStore): Promise<number> {
  const ns = store.namespace(DEGREE_DIRTY_NAMESPACE);
  let n = 0;
  for (const shard of degreeDirtyShards()) n += (await ns.slice(shard, { limit: 1_000 })).cells.length;
  return n;
}
