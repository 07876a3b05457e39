import http from 'node:http';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, round } from '../ingest/stats.ts';
import { getJson, inNeighboursUrl } from './httpGet.ts';
import { watchProcessMemory } from './processMemoryWatch.ts';

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
      const body = (await getJson(agent, inNeighboursUrl(o.baseUrl, o.edgeType, o.vertex, o.pageSize, cursor))) as { items: unknown[]; cursor?: string };
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
