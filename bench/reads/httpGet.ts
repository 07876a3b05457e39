import http from 'node:http';

/** GET `url` on a keep-alive agent; the body, or an error naming the status. */
export function getText(agent: http.Agent, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200) reject(new Error(`GET ${url}: HTTP ${res.statusCode} ${body.slice(0, 200)}`));
          else resolve(body);
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** GET `url` on a keep-alive agent; the JSON body, or an error naming the status. */
export const getJson = async (agent: http.Agent, url: string): Promise<unknown> => JSON.parse(await getText(agent, url));

/** A neighbour page route, newest first by default (server/api/operations: listOutNeighbours, listInNeighbours). */
export const neighboursUrl = (base: string, direction: 'out' | 'in', edgeType: string, vertex: string, limit: number, cursor?: string) =>
  `${base}/v1/vertices/${encodeURIComponent(vertex)}/${direction}/${edgeType}?limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;

/** The in-neighbour page route (listInNeighbours). */
export const inNeighboursUrl = (base: string, edgeType: string, vertex: string, limit: number, cursor?: string) => neighboursUrl(base, 'in', edgeType, vertex, limit, cursor);

/** The links src → each of `dsts` in one read (getEdges, TAO's assoc_get). */
export const edgesUrl = (base: string, edgeType: string, src: string, dsts: readonly string[]) =>
  `${base}/v1/edges/${edgeType}/${encodeURIComponent(src)}?${dsts.map((d) => `dst=${encodeURIComponent(d)}`).join('&')}`;

/** The recounted degree of one direction (getDegree). */
export const degreeUrl = (base: string, edgeType: string, vertex: string, direction: 'out' | 'in') =>
  `${base}/v1/vertices/${encodeURIComponent(vertex)}/degree/${edgeType}?direction=${direction}`;
