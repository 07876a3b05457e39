import { createHash } from 'node:crypto';
import type { EdgeReader } from '../../reads/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, round } from '../ingest/stats.ts';
import { scanAllInNeighbours, type FullScan } from '../wide/fullScan.ts';
import { watchMemory, type MemoryReport } from '../wide/memoryWatch.ts';
import type { RawReads } from './rawReads.ts';

export interface RawScan {
  readonly items: number;
  readonly pages: number;
  readonly fetchSize: number;
  readonly seconds: number;
  readonly itemsPerSecond: number;
  readonly digest: string;
  readonly memory: MemoryReport;
}

export interface ScanRepeat {
  readonly first: 'edgestream' | 'raw';
  readonly edgestream: FullScan;
  readonly raw: RawScan;
}

/** Every in-neighbour newest first through the raw driver, keeping the same digest of (peer, time) as the reader's scan. */
async function rawScan(raw: RawReads, vertex: string, fetchSize: number, expected: number, status: ReturnType<typeof createStatusLine>, label: string): Promise<RawScan> {
  const memory = watchMemory();
  const digest = createHash('sha256');
  let items = 0;
  const t0 = performance.now();
  const r = await raw.scanIn(vertex, fetchSize, (n) => {
    digest.update(`${n.peer}\u0000${n.time}\n`);
    if (++items % 50_000 === 0) status.update(`${label}: ${fmt(items)}/${fmt(expected)} rows, ${fmt(items / ((performance.now() - t0) / 1000))}/s`);
  });
  const seconds = (performance.now() - t0) / 1000;
  status.done();
  return { items: r.rows, pages: r.pages, fetchSize, seconds: round(seconds, 2), itemsPerSecond: Math.round(r.rows / seconds), digest: digest.digest('hex'), memory: memory.stop() };
}

/**
 * One repeat of the full-scan comparison: the reader's newest-first scan
 * (bench/wide/fullScan: pages of `pageSize` through cursors) and the raw
 * paged read of `T_in_recent`, one after the other, the side that goes first
 * alternating with `repeat`. Both must see the same neighbours in the same order.
 */
export async function compareFullScan(o: {
  reader: EdgeReader;
  raw: RawReads;
  edgeType: string;
  vertex: string;
  pageSize: number;
  fetchSize: number;
  expected: number;
  repeat: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<ScanRepeat> {
  const lib = () => scanAllInNeighbours({ reader: o.reader, edgeType: o.edgeType, vertex: o.vertex, pageSize: o.pageSize, expectedItems: o.expected, status: o.status, label: `${o.label} edgestream` });
  const raw = () => rawScan(o.raw, o.vertex, o.fetchSize, o.expected, o.status, `${o.label} raw`);
  const first = o.repeat % 2 === 0 ? 'edgestream' : 'raw';
  let edgestream: FullScan;
  let rawResult: RawScan;
  if (first === 'edgestream') {
    edgestream = await lib();
    rawResult = await raw();
  } else {
    rawResult = await raw();
    edgestream = await lib();
  }
  if (edgestream.digest !== rawResult.digest) throw new Error(`${o.label}: edgestream's scan (${edgestream.items} rows) and the raw scan (${rawResult.items} rows) saw different neighbours`);
  return { first, edgestream, raw: rawResult };
}
