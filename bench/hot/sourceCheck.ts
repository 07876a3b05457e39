import pLimit from 'p-limit';
import type { EdgeReader } from '../../reads/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { round } from '../ingest/stats.ts';
import { pollUntil } from '../shared/pollUntil.ts';

/** A source whose count and newest page are checked: what was published from it. */
export interface CheckedSource {
  readonly id: string;
  readonly published: number;
  /** Its newest-first page as published (bench/hot/hotWorkload newestPage). */
  readonly newest: readonly { readonly dst: string; readonly time: bigint }[];
}

export interface SourceCheck {
  readonly sampled: number;
  /** Every sampled out-degree equal to the links published from it. */
  readonly countsSettled: boolean;
  /** Drain (repairs included) → every sampled out-degree exact; or until the bench gave up. */
  readonly countSettleSeconds: number;
  /** Sampled sources whose newest-first page differs from the published one. */
  readonly pageMismatches: number;
  readonly examples: readonly string[];
}

/** Where a read page first differs from the expected one, or undefined when they are equal. */
export function firstPageDifference(expected: CheckedSource['newest'], got: readonly { readonly peer: string; readonly time: bigint }[]): string | undefined {
  for (let k = 0; k < Math.max(expected.length, got.length); k++) {
    const e = expected[k];
    const g = got[k];
    if (e?.dst !== g?.peer || e?.time !== g?.time) return `position ${k}: expected ${e ? `${e.dst}@${e.time}` : 'the end'}, read ${g ? `${g.peer}@${g.time}` : 'the end'}`;
  }
  return undefined;
}

/**
 * After a phase drained: reads each sampled source's out-degree through the
 * EdgeReader (the recounted `degrees` cell `count` serves) until all equal
 * what was published, timing it from the drain; then its newest-first page of
 * `pageLimit`, which must be the links with the newest edge times, newest first.
 */
export async function checkSources(o: {
  reader: EdgeReader;
  edgeType: string;
  sources: readonly CheckedSource[];
  pageLimit: number;
  drainedAt: number;
  timeoutMs: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<SourceCheck> {
  const limit = pLimit(16);
  const wrong = new Map(o.sources.map((s) => [s.id, s]));
  const settledAt = await pollUntil(
    async () => {
      await Promise.all([...wrong.values()].map((s) => limit(async () => (BigInt(s.published) === (await o.reader.count(o.edgeType, s.id, 'out')) ? wrong.delete(s.id) : undefined))));
      o.status.update(`${o.label}: ${wrong.size}/${o.sources.length} sampled out-degrees not yet exact, ${((performance.now() - o.drainedAt) / 1000).toFixed(0)} s after the drain`);
      return wrong.size === 0;
    },
    { since: o.drainedAt, deadline: o.drainedAt + o.timeoutMs, minIntervalMs: 100 },
  );
  const countSettleSeconds = round(((settledAt ?? performance.now()) - o.drainedAt) / 1000, 2);
  o.status.done();
  const examples: string[] = [];
  for (const s of [...wrong.values()].slice(0, 3)) examples.push(`${s.id}: count ${await o.reader.count(o.edgeType, s.id, 'out')}, published ${s.published}`);
  let pageMismatches = 0;
  await Promise.all(
    o.sources.map((s) =>
      limit(async () => {
        const page = await o.reader.out(o.edgeType, s.id, { limit: o.pageLimit });
        const difference = firstPageDifference(s.newest, page.items);
        if (difference === undefined) return;
        pageMismatches++;
        if (examples.length < 6) examples.push(`${s.id} newest page, ${difference}`);
      }),
    ),
  );
  return { sampled: o.sources.length, countsSettled: settledAt !== undefined, countSettleSeconds, pageMismatches, examples };
}
