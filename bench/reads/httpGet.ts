import http from 'node:http';

/** GET `url` on a keep-alive agent; the JSON body, or an error naming the status. */
export function getJson(agent: http.Agent, url: string): Promise<unknown> {
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

/** The in-neighbour page route (server/api/operations: listInNeighbours). */
export const inNeighboursUrl = (base: string, edgeType: string, vertex: string, limit: number, cursor?: string) =>
  `${base}/v1/vertices/${encodeURIComponent(vertex)}/in/${edgeType}?limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
