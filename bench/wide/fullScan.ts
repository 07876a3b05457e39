import { createHash } from 'node:crypto';
import type { EdgeReader } from '../../reads/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, quantile, round } from '../ingest/stats.ts';
import { watchMemory, type MemoryReport } from './memoryWatch.ts';

export interface FullScan {
  readonly items: number;
  readonly pages: number;
  readonly pageSize: number;
  readonly seconds: number;
  readonly itemsPerSecond: number;
  readonly pageP50Ms: number;
  readonly pageP99Ms: number;
  /** SHA-256 over every (peer, time) in scan order: equal before and after the split iff the reader returned the same neighbours. */
  readonly digest: string;
  readonly memory: MemoryReport;
}

/**
 * Every in-neighbour of `vertex`, newest first, in pages of `pageSize` via the
 * reader's cursors, keeping only the current page (a count and a running
 * digest): the scan itself must run in memory bounded by the page, whatever
 * the partition's size. Memory is watched (memoryWatch) with a checkpoint at
 * every 10% of the expected items.
 */
export async function scanAllInNeighbours(o: {
  reader: EdgeReader;
  edgeType: string;
  vertex: string;
  pageSize: number;
  expectedItems: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<FullScan> {
  const memory = watchMemory();
  const digest = createHash('sha256');
  const pageMs: number[] = [];
  let items = 0;
  let pages = 0;
  let cursor: string | undefined;
  let nextCheckpoint = 0.1;
  const t0 = performance.now();
  memory.checkpoint('0%');
  do {
    const p0 = performance.now();
    const page = await o.reader.in(o.edgeType, o.vertex, { limit: o.pageSize, ...(cursor === undefined ? {} : { cursor }) });
    pageMs.push(performance.now() - p0);
    pages++;
    for (const n of page.items) digest.update(`${n.peer}\u0000${n.time}\n`);
    items += page.items.length;
    cursor = page.cursor;
    const done = items / Math.max(1, o.expectedItems);
    while (done >= nextCheckpoint && nextCheckpoint <= 1.0001) {
      memory.checkpoint(`${Math.round(nextCheckpoint * 100)}%`);
      nextCheckpoint += 0.1;
    }
    const secs = (performance.now() - t0) / 1000;
    o.status.update(`${o.label}: ${fmt(items)}/${fmt(o.expectedItems)} neighbours, ${pages} pages, ${fmt(items / secs)}/s, RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`);
  } while (cursor !== undefined);
  const seconds = (performance.now() - t0) / 1000;
  memory.checkpoint('end');
  o.status.done();
  return {
    items,
    pages,
    pageSize: o.pageSize,
    seconds: round(seconds, 2),
    itemsPerSecond: Math.round(items / seconds),
    pageP50Ms: round(quantile(pageMs, 0.5), 1),
    pageP99Ms: round(quantile(pageMs, 0.99), 1),
    digest: digest.digest('hex'),
    memory: memory.stop(),
  };
}
