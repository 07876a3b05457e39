import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { EdgeReader, NeighbourOrder, NeighbourPage, TraversalHop } from '../../reads/index.ts';
import { propertyJson, type LinkDirection, type PropertyValue } from '../../sinks/namespaces/index.ts';
import { operations, routeOf, type Operation } from '../api/operations.ts';
import type { ConsistencyGate } from '../consistency/createConsistencyGate.ts';
import { parseConsistencyToken } from '../consistency/consistencyToken.ts';
import type { ServerMetrics } from '../metrics/serverMetrics.ts';
import { problem, sendProblem } from '../http/problem.ts';
import { isAdmin } from '../auth/scopes.ts';
import { principalOf } from '../auth/registerAuth.ts';
import { linkJson } from './linkJson.ts';

export interface ReadRoutesOptions {
  readonly reader: EdgeReader;
  readonly gate: ConsistencyGate;
  readonly readYourWritesTimeoutMs: number;
  /** config `server.maxReadsInFlight`: reads served at once, server-wide. */
  readonly maxReadsInFlight: number;
  readonly metrics: ServerMetrics;
  /** The config's edge types: a path naming another is a 400 (the route's enum). */
  readonly edgeTypes: readonly string[];
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
 * keys too) may predate the write. Only a caller with the scope `admin` is
 * told why a token was refused or is still pending (topic, partitions,
 * offsets, repair backlog); others get the status alone.
 *
 * At most `maxReadsInFlight` reads run at once (503 + Retry-After beyond).
 * A read whose client went away (or whose connection timed out) is aborted:
 * the reader issues no further query for it.
 */
export function registerReadRoutes(app: FastifyInstance, opts: ReadRoutesOptions): void {
  const { reader, gate, metrics } = opts;
  let inFlight = 0;

  const awaitToken: preHandlerAsyncHookHandler = async (request, reply) => {
    const after = (request.query as Query)['after'];
    if (typeof after !== 'string') return;
    const parsed = parseConsistencyToken(after);
    if (!parsed.ok) return void sendProblem(reply, problem('invalidParams', { detail: `after: ${parsed.reason}`, 'invalid-params': [{ name: 'after', in: 'query', reason: parsed.reason }] }));
    const started = performance.now();
    const verdict = await gate.waitFor(parsed.token, opts.readYourWritesTimeoutMs);
    metrics.consistencyWaits.observe({ outcome: verdict.kind }, (performance.now() - started) / 1000);
    const detailed = isAdmin(principalOf(request));
    if (verdict.kind === 'overloaded') {
      metrics.shed.inc({ bound: 'token_waiters' });
      return void sendProblem(reply, problem('overloaded', { detail: detailed ? `server.maxTokenWaiters: ${verdict.reason}` : 'too many reads are waiting for their tokens', retryAfterSeconds: 1 }));
    }
    if (verdict.kind === 'unknown') {
      const reason = detailed ? verdict.reason : 'names no record of this server\'s input';
      return void sendProblem(reply, problem('unknownToken', { detail: reason, 'invalid-params': [{ name: 'after', in: 'query', reason }] }));
    }
    if (verdict.kind !== 'visible') {
      const seconds = Math.max(1, Math.ceil(opts.readYourWritesTimeoutMs / 2000));
      return void sendProblem(reply, problem('notVisibleYet', { detail: `after waiting ${opts.readYourWritesTimeoutMs} ms${detailed ? `: ${verdict.reason}` : ''}`, retryAfterSeconds: seconds }));
    }
  };

  /** Runs a read within the in-flight budget, with a signal that aborts when its client is gone. */
  const bounded = async (reply: FastifyReply, read: (signal: AbortSignal) => Promise<unknown>): Promise<unknown> => {
    if (inFlight >= opts.maxReadsInFlight) {
      metrics.shed.inc({ bound: 'reads_in_flight' });
      return sendProblem(reply, problem('overloaded', { detail: `${inFlight} reads in flight (server.maxReadsInFlight); retry`, retryAfterSeconds: 1 }));
    }
    inFlight++;
    const controller = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) controller.abort();
    };
    reply.raw.once('close', onClose);
    try {
      return await read(controller.signal);
    } finally {
      inFlight--;
      reply.raw.off('close', onClose);
    }
  };

  const route = (op: Operation, handler: (params: Params, query: Query, reply: FastifyReply, signal: AbortSignal) => Promise<unknown>) =>
    app.route({
      method: op.method,
      ...routeOf(op, opts.edgeTypes),
      config: { access: 'read' },
      preHandler: awaitToken,
      handler: (req: FastifyRequest, reply) => bounded(reply, (signal) => handler(req.params as Params, req.query as Query, reply, signal)),
    });

  route(operations.getEdge, async ({ type = '', src = '', dst = '' }, _q, reply) => {
    const link = await reader.edge(type, src, dst);
    if (!link) return sendProblem(reply, problem('notFound', { detail: `no mutation ever touched ${type} ${src} -> ${dst}` }));
    return { type, src, dst, ...linkJson(link) };
  });

  route(operations.getEdges, async ({ type = '', src = '' }, q, _reply, signal) => {
    const keys = q['keys'] as string[] | undefined;
    const got = await reader.edges(type, src, q['dst'] as string[], keys === undefined ? { signal } : { keys, fresh: fresh(q), signal });
    const items = got.flatMap(({ dst, link, props }) => (link === undefined ? [] : [{ dst, ...linkJson(link), ...(props === undefined ? {} : { properties: propertiesJson(props) }) }]));
    return { type, src, items, absent: got.filter((g) => g.link === undefined).map((g) => g.dst) };
  });

  route(operations.getProperties, async ({ type = '', src = '', dst = '' }, q) => {
    const props = await reader.props(type, src, dst, q['keys'] as string[] | undefined, { fresh: fresh(q) });
    return { type, src, dst, properties: propertiesJson(props) };
  });

  for (const [op, direction] of [[operations.listOutNeighbours, 'out'], [operations.listInNeighbours, 'in']] as const) {
    route(op, async ({ type = '', vertex = '' }, q, _reply, signal) => {
      const options = { limit: q['limit'] as number, signal, ...(q['cursor'] ? { cursor: q['cursor'] as string } : {}), ...(q['order'] ? { order: q['order'] as NeighbourOrder } : {}) };
      return page(await reader[direction](type, vertex, options));
    });
  }

  for (const [op, direction] of [[operations.listOutTimeRange, 'out'], [operations.listInTimeRange, 'in']] as const) {
    route(op, async ({ type = '', vertex = '' }, q, _reply, signal) => {
      const time = (name: string) => (typeof q[name] === 'string' ? { [name]: BigInt(q[name]) } : {});
      const options = { limit: q['limit'] as number, signal, ...time('low'), ...time('high'), ...(q['cursor'] ? { cursor: q['cursor'] as string } : {}) };
      return page(await reader.timeRange(type, vertex, direction, options));
    });
  }

  route(operations.getDegree, async ({ type = '', vertex = '' }, q) => {
    const directions: LinkDirection[] = q['direction'] ? [q['direction'] as LinkDirection] : ['out', 'in'];
    const counts = await Promise.all(directions.map((d) => reader.count(type, vertex, d)));
    return { type, vertex, ...Object.fromEntries(directions.map((d, i) => [d, String(counts[i])])) };
  });

  route(operations.traverse, async ({ vertex = '' }, q, _reply, signal) => {
    const hops: TraversalHop[] = (q['hops'] as string[]).map((h) => {
      const [type = '', direction] = h.split(':');
      return { type, direction: direction as LinkDirection };
    });
    const t = await reader.traverse(vertex, hops, { perHopCap: q['cap'] as number, concurrency: q['concurrency'] as number, signal });
    return { start: vertex, hops: t.hops.map((h, i) => ({ ...hops[i], vertices: h.vertices, truncated: h.truncated })), truncated: t.truncated };
  });
}
