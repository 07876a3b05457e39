import http from 'node:http';
import type { EdgeReader } from '../../reads/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, round } from '../ingest/stats.ts';
import { runOpenLoop, type OpenLoopResult } from './openLoop.ts';
import type { RawReads } from './rawReads.ts';
import { watchProcessMemory } from './serveChild.ts';

type Side = 'edgestream' | 'http' | 'raw';

export interface HttpRepeat {
  readonly order: readonly Side[];
  readonly http: OpenLoopResult;
  readonly edgestream: OpenLoopResult;
  readonly raw: OpenLoopResult;
}

/** GET `url` on a keep-alive agent; the JSON body, or an error naming the status. */
function getJson(agent: http.Agent, url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200) reject(new Error(`GET ${url}: HTTP ${res.statusCode} ${body.slice(0, 200)}`));
          else resolve(JSON.parse(body));
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const pageUrl = (base: string, edgeType: string, vertex: string, limit: number, cursor?: string) =>
  `${base}/v1/vertices/${encodeURIComponent(vertex)}/in/${edgeType}?limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;

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
  const url = pageUrl(o.baseUrl, o.edgeType, o.vertex, o.limit);
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

/** Every in-neighbour newest first over HTTP, following the cursors, one request at a time; the server's peak RSS meanwhile. */
export async function scanOverHttp(o: { baseUrl: string; serverPid: number; edgeType: string; vertex: string; pageSize: number; expected: number; status: ReturnType<typeof createStatusLine>; label: string }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const memory = watchProcessMemory(o.serverPid);
  let items = 0;
  let pages = 0;
  let cursor: string | undefined;
  const t0 = performance.now();
  try {
    do {
      const body = (await getJson(agent, pageUrl(o.baseUrl, o.edgeType, o.vertex, o.pageSize, cursor))) as { items: unknown[]; cursor?: string };
      items += body.items.length;
      pages++;
      cursor = body.cursor;
      o.status.update(`${o.label}: ${fmt(items)}/${fmt(o.expected)} neighbours over HTTP`);
    } while (cursor !== undefined);
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - t0) / 1000;
  o.status.done();
  return { items, pages, pageSize: o.pageSize, seconds: round(seconds, 2), itemsPerSecond: Math.round(items / seconds), server: memory.stop() };
}

export type HttpScan = Awaited<ReturnType<typeof scanOverHttp>>;
