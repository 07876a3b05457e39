import fs from 'node:fs';
import type { ServerOptions } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { isLoopbackHost, type EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { EdgeReader } from '../reads/index.ts';
import type { EdgeProducer } from '../streams/producer/index.ts';
import { openApiDocument } from './api/openApiDocument.ts';
import { API_VERSION } from './api/openApiFile.ts';
import type { ConsistencyGate } from './consistency/createConsistencyGate.ts';
import { createTokenVerifier } from './auth/createTokenVerifier.ts';
import { registerAuth } from './auth/registerAuth.ts';
import { problem, ProblemError, sendProblem } from './http/problem.ts';
import { toProblem } from './http/toProblem.ts';
import { createServerMetrics, type ServerMetrics } from './metrics/serverMetrics.ts';
import { registerMutationRoutes } from './routes/mutationRoutes.ts';
import { registerOpsRoutes, type ReadinessCheck } from './routes/opsRoutes.ts';
import { registerReadRoutes } from './routes/readRoutes.ts';

export interface EdgeServerOptions {
  readonly reader: EdgeReader;
  readonly producer: EdgeProducer;
  readonly gate: ConsistencyGate;
  /** What /readyz checks (the stack, the split directory). */
  readonly readiness: readonly ReadinessCheck[];
  readonly limits: EdgestreamConfig['server'];
  /** The config's edge types: the routes take only these, and /openapi.json lists them. */
  readonly edgeTypes: readonly string[];
  readonly logger: Logger;
  readonly metrics?: ServerMetrics;
}

export interface EdgeServer {
  readonly app: FastifyInstance;
  readonly metrics: ServerMetrics;
  /** Listens; resolves with the base URL (port 0 picks a free one). */
  listen(port: number, host: string): Promise<string>;
  /**
   * Stops accepting (new requests get 503 and /readyz fails), waits for the
   * requests in flight, then releases the consistency gate. The caller then
   * flushes the producer and closes its clients.
   */
  close(): Promise<void>;
}

/** Header paths a log line may carry a credential at; pino replaces their values. */
const REDACTED_PATHS = ['req.headers.authorization', 'headers.authorization', 'request.headers.authorization', 'authorization', '*.authorization'];

/**
 * Node's listener options: the whole request (headers and body) within `requestTimeoutMs`,
 * checked every quarter of it (Node's default check runs every 30 s); with `server.tls`, the
 * key pair, read at start (a missing file fails the start naming its field).
 */
function listenerOptions(limits: EdgestreamConfig['server']): { http: ServerOptions } | { https: ServerOptions & { cert: Buffer; key: Buffer } } {
  const http: ServerOptions = {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: Math.min(limits.requestTimeoutMs, 60_000),
    connectionsCheckingInterval: Math.max(250, Math.floor(limits.requestTimeoutMs / 4)),
  };
  const { tls } = limits;
  if (!tls) return { http };
  const read = (field: 'certFile' | 'keyFile') => {
    try {
      return fs.readFileSync(tls[field]);
    } catch (e) {
      throw new Error(`server.tls.${field}: cannot read ${tls[field]}: ${(e as Error).message}`, { cause: e });
    }
  };
  return { https: { ...http, cert: read('certFile'), key: read('keyFile') } };
}

/** Refuses to serve without authentication where other machines can reach the listener, unless the operator said so. */
function assertAuthFor(host: string, auth: EdgestreamConfig['server']['auth']): void {
  if (auth.mode !== 'none' || auth.allowUnauthenticated || isLoopbackHost(host)) return;
  throw new Error(
    `server.auth.mode is 'none' (no authentication) but the server would listen on ${host}, which other machines can reach: ` +
      "set server.auth.mode 'jwt' (docs/architecture.md §8), listen on 127.0.0.1, or set server.auth.allowUnauthenticated: true to serve everyone on purpose",
  );
}

/** The HTTP API of `edgestream serve` on fastify (docs/architecture.md §8); owns no client, only routes over them. */
export async function createEdgeServer(opts: EdgeServerOptions): Promise<EdgeServer> {
  const metrics = opts.metrics ?? createServerMetrics();
  const { auth } = opts.limits;
  const verify = auth.mode === 'jwt' && auth.jwt ? await createTokenVerifier(auth.jwt) : undefined;
  let closing = false;
  const app = Fastify({
    loggerInstance: opts.logger.child({}, { redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: opts.limits.bodyLimitBytes,
    // A slowly trickled request is cut (408); an idle connection, one waiting for a slow answer included, closed.
    requestTimeout: opts.limits.requestTimeoutMs,
    connectionTimeout: opts.limits.connectionTimeoutMs,
    ...listenerOptions(opts.limits),
    return503OnClosing: true,
    // A path parameter may be a vertex id of up to 4096 characters (percent-encoded: up to 12 bytes each); a longer one is 414.
    routerOptions: { maxParamLength: 4_096 * 12 },
    // Errors fastify raises before routing (a malformed URL, a too long parameter) are problem+json too.
    frameworkErrors: (error, request, reply) => {
      const kind = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'uriTooLong' : 'badRequest';
      return sendProblem(reply, problem(kind, { detail: kind === 'uriTooLong' ? 'a path parameter is longer than 49152 bytes' : `${error.message}` }));
    },
    // Unknown parameters are refused, not dropped; `discriminator` picks the mutation's variant by `op` (precise errors).
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: true, discriminator: true, allowUnionTypes: true } },
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ProblemError) {
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return sendProblem(reply, error.problem);
    }
    if ((error as { statusCode?: number }).statusCode === 429) {
      const after = Number(reply.getHeader('retry-after') ?? 1);
      return sendProblem(reply, problem('rateLimited', { detail: (error as Error).message, retryAfterSeconds: after }));
    }
    const { problem: p, internal } = toProblem(error);
    if (internal) request.log.error({ err: error, url: request.url }, 'request failed');
    else if (p.status >= 500) request.log.warn({ err: error, url: request.url }, 'request failed (unavailable)');
    return sendProblem(reply, p);
  });
  app.setNotFoundHandler((request, reply) => sendProblem(reply, problem('notFound', { detail: `no route ${request.method} ${request.url.split('?')[0]}; see /openapi.json` })));
  // While draining, a response in flight closes its keep-alive connection, so close() ends once it is sent.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) void reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.requests.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  registerAuth(app, auth, verify, metrics); // before the rate limit: its key is the principal
  await app.register(rateLimit, {
    global: true,
    keyGenerator: (request) => (request.principal?.subject === undefined ? `ip:${request.ip}` : `sub:${request.principal.subject}`),
    max: opts.limits.rateLimitMax,
    timeWindow: opts.limits.rateLimitWindowMs,
    errorResponseBuilder: (_request, context) => ({ statusCode: 429, message: `more than ${context.max} requests in ${context.after}` }),
  });
  registerOpsRoutes(app, { checks: opts.readiness, checkTimeoutMs: 2_000, cacheMs: opts.limits.readinessCacheMs, closing: () => closing, metrics, openApi: openApiDocument(API_VERSION, opts.edgeTypes) });
  registerReadRoutes(app, { reader: opts.reader, gate: opts.gate, readYourWritesTimeoutMs: opts.limits.readYourWritesTimeoutMs, maxReadsInFlight: opts.limits.maxReadsInFlight, metrics, edgeTypes: opts.edgeTypes });
  registerMutationRoutes(app, { producer: opts.producer, metrics, clientEventTime: opts.limits.clientEventTime, edgeTypes: opts.edgeTypes });

  return {
    app,
    metrics,
    async listen(port, host) {
      assertAuthFor(host, auth);
      await app.listen({ port, host });
      const address = app.server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      return `${opts.limits.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${bound}`;
    },
    async close() {
      closing = true;
      await app.close();
      opts.gate.close();
    },
  };
}
