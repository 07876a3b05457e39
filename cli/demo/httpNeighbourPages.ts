import type { NeighbourPages } from './measurePaired.ts';

/** Neighbour pages read over the HTTP API of `edgestream serve` (GET /v1/vertices/{vertex}/in/{type}). */
export function httpNeighbourPages(baseUrl: string): NeighbourPages {
  return {
    async in(type, vertex, { limit, cursor, order }) {
      const url = new URL(`/v1/vertices/${encodeURIComponent(vertex)}/in/${encodeURIComponent(type)}`, baseUrl);
      url.searchParams.set('limit', String(limit));
      if (cursor !== undefined) url.searchParams.set('cursor', cursor);
      if (order !== undefined) url.searchParams.set('order', order);
      const res = await fetch(url);
      if (!res.ok) throw new Error(`GET ${url.pathname}${url.search}: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as { items: unknown[]; cursor?: string };
    },
  };
}
