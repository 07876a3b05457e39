import http from 'node:http';
import type { EdgeReader } from '../../reads/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { getJson, inNeighboursUrl } from './httpGet.ts';
import { runOpenLoop, type OpenLoopResult } from './openLoop.ts';
import type { RawReads } from './rawReads.ts';

type Side = 'edgestream' | 'http' | 'raw';

export interface HttpRepeat {
  readonly order: readonly Side[];
  readonly http: OpenLoopResult;
  readonly edgestream: OpenLoopResult;
  readonly raw: OpenLoopResult;
}

/**
 * One repeat of the fixed-rate comparison: three open-loop blocks at the same
 * offered rate and connections — the newest page over HTTP from the
 * `edgestream serve` child, the same call on the library in this process,
 * and the raw slice — in an order that rotates with `repeat`.
 */
export async function compareAtFixedRate(o: {
  baseUrl: string;
  reader: EdgeReader;
  raw: RawReads;
  edgeType: string;
  vertex: string;
  limit: number;
  rate: number;
  connections: number;
  seconds: number;
  repeat: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<HttpRepeat> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const url = inNeighboursUrl(o.baseUrl, o.edgeType, o.vertex, o.limit);
  const calls: Record<Side, () => Promise<void>> = {
    http: async () => {
      const body = (await getJson(agent, url)) as { items?: unknown[] };
      if (!Array.isArray(body.items) || body.items.length === 0) throw new Error(`GET ${url}: no items`);
    },
    edgestream: async () => void (await o.reader.in(o.edgeType, o.vertex, { limit: o.limit })),
    raw: async () => void (await o.raw.newestIn(o.vertex, o.limit)),
  };
  try {
    for (let i = 0; i < 20; i++) await Promise.all(Object.values(calls).map((c) => c())); // warm-up: connections open, statements prepared
    const sides: Side[] = ['http', 'edgestream', 'raw'];
    const order = sides.map((_, i) => sides[(i + o.repeat) % sides.length] as Side);
    const results: Partial<Record<Side, OpenLoopResult>> = {};
    for (const side of order) {
      results[side] = await runOpenLoop({ rate: o.rate, seconds: o.seconds, connections: o.connections, call: calls[side], onProgress: (d, t) => o.status.update(`${o.label} ${side}: ${d}/${t} requests`) });
      o.status.done();
    }
    return { order, http: results.http as OpenLoopResult, edgestream: results.edgestream as OpenLoopResult, raw: results.raw as OpenLoopResult };
  } finally {
    agent.destroy();
  }
}
