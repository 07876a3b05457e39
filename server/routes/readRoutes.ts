import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { EdgeReader, NeighbourOrder, NeighbourPage, TraversalHop } from '../../reads/index.ts';
import { propertyJson, type LinkDirection, type PropertyValue } from '../../sinks/namespaces/index.ts';
import { operations, routeOf, type Operation } from '../api/operations.ts';
import type { ConsistencyGate } from '../consistency/createConsistencyGate.ts';
import { parseConsistencyToken } from '../consistency/consistencyToken.ts';
import type { ServerMetrics } from '../metrics/serverMetrics.ts';
import { problem, sendProblem } from '../http/problem.ts';
import { linkJson } from './linkJson.ts';

export interface ReadRoutesOptions {
  readonly reader: EdgeReader;
  readonly gate: ConsistencyGate;
  readonly readYourWritesTimeoutMs: number;
  readonly metrics: ServerMetrics;
}

type Params = Record<string, string>;

const propertiesJson = (props: Record<string, PropertyValue>) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, propertyJson(v)]));
type Query = Record<string, unknown>;
/** A read carrying a token must not be served from a cache older than the write it names. */
const fresh = (q: Query) => typeof q['after'] === 'string';

const page = (p: NeighbourPage) => ({
  items: p.items.map((n) => ({ peer: n.peer, ...linkJson(n) })),
  ...(p.cursor === undefined ? {} : { cursor: p.cursor }),
});

/**
 * The read operations. A read with `?after=<token>` first waits, through the
 * shared ConsistencyGate, until the write the token names is visible: 409 when
 * the token names no record of this server's input, 503 + Retry-After when the
 * wait ran out (the problem says what was still pending). It then reads
 * properties `fresh`, past the reader's props cache, whose entries (absent
 * keys too) may predate the write.
 */
export function registerReadRoutes(app: FastifyInstance, opts: ReadRoutesOptions): void {
  const { reader, gate, metrics } = opts;

  const awaitToken: preHandlerAsyncHookHandler = async (request, reply) => {
    const after = (request.query as Query)['after'];
    if (typeof after !== 'string') return;
    const parsed = parseConsistencyToken(after);
    if (!parsed.ok) return void sendProblem(reply, problem('invalidParams', { detail: `after: ${parsed.reason}`, 'invalid-params': [{ name: 'after', in: 'query', reason: parsed.reason }] }));
    const started = performance.now();
    const verdict = await gate.waitFor(parsed.token, opts.readYourWritesTimeoutMs);
    metrics.consistencyWaits.observe({ outcome: verdict.kind }, (performance.now() - started) / 1000);
    if (verdict.kind === 'unknown') return void sendProblem(reply, problem('unknownToken', { detail: verdict.reason, 'invalid-params': [{ name: 'after', in: 'query', reason: verdict.reason }] }));
    if (verdict.kind !== 'visible') {
      const seconds = Math.max(1, Math.ceil(opts.readYourWritesTimeoutMs / 2000));
      return void sendProblem(reply, problem('notVisibleYet', { detail: `after waiting ${opts.readYourWritesTimeoutMs} ms: ${verdict.reason}`, retryAfterSeconds: seconds }));
    }
  };

  const route = (op: Operation, handler: (params: Params, query: Query, reply: FastifyReply) => Promise<unknown>) =>
    app.route({ method: op.method, ...routeOf(op), preHandler: awaitToken, handler: (req: FastifyRequest, reply) => handler(req.params as Params, req.query as Query, reply) });

  route(operations.getEdge, async ({ type = '', src = '', dst = '' }, _q, reply) => {
    const link = await reader.edge(type, src, dst);
    if (!link) return sendProblem(reply, problem('notFound', { detail: `no mutation ever touched ${type} ${src} -> ${dst}` }));
    return { type, src, dst, ...linkJson(link) };
  });

  route(operations.getEdges, async ({ type = '', src = '' }, q) => {
    const keys = q['keys'] as string[] | undefined;
    const got = await reader.edges(type, src, q['dst'] as string[], keys === undefined ? {} : { keys, fresh: fresh(q) });
    const items = got.flatMap(({ dst, link, props }) => (link === undefined ? [] : [{ dst, ...linkJson(link), ...(props === undefined ? {} : { properties: propertiesJson(props) }) }]));
    return { type, src, items, absent: got.filter((g) => g.link === undefined).map((g) => g.dst) };
  });

  route(operations.getProperties, async ({ type = '', src = '', dst = '' }, q) => {
    const props = await reader.props(type, src, dst, q['keys'] as string[] | undefined, { fresh: fresh(q) });
    return { type, src, dst, properties: propertiesJson(props) };
  });

  for (const [op, direction] of [[operations.listOutNeighbours, 'out'], [operations.listInNeighbours, 'in']] as const) {
    route(op, async ({ type = '', vertex = '' }, q) => {
      const options = { limit: q['limit'] as number, ...(q['cursor'] ? { cursor: q['cursor'] as string } : {}), ...(q['order'] ? { order: q['order'] as NeighbourOrder } : {}) };
      return page(await reader[direction](type, vertex, options));
    });
  }

  for (const [op, direction] of [[operations.listOutTimeRange, 'out'], [operations.listInTimeRange, 'in']] as const) {
    route(op, async ({ type = '', vertex = '' }, q) => {
      const time = (name: string) => (typeof q[name] === 'string' ? { [name]: BigInt(q[name]) } : {});
      const options = { limit: q['limit'] as number, ...time('low'), ...time('high'), ...(q['cursor'] ? { cursor: q['cursor'] as string } : {}) };
      return page(await reader.timeRange(type, vertex, direction, options));
    });
  }

  route(operations.getDegree, async ({ type = '', vertex = '' }, q) => {
    const directions: LinkDirection[] = q['direction'] ? [q['direction'] as LinkDirection] : ['out', 'in'];
    const counts = await Promise.all(directions.map((d) => reader.count(type, vertex, d)));
    return { type, vertex, ...Object.fromEntries(directions.map((d, i) => [d, String(counts[i])])) };
  });

  route(operations.traverse, async ({ vertex = '' }, q) => {
    const hops: TraversalHop[] = (q['hops'] as string[]).map((h) => {
      const [type = '', direction] = h.split(':');
      return { type, direction: direction as LinkDirection };
    });
    const t = await reader.traverse(vertex, hops, { perHopCap: q['cap'] as number, concurrency: q['concurrency'] as number });
    return { start: vertex, hops: t.hops.map((h, i) => ({ ...hops[i], vertices: h.vertices, truncated: h.truncated })), truncated: t.truncated };
  });
}
