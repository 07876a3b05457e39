import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from '../metrics/serverMetrics.ts';
import { problem, sendProblem } from '../http/problem.ts';

/** One dependency /readyz checks; `check` rejects when it is not usable. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}

export interface OpsRoutesOptions {
  readonly checks: readonly ReadinessCheck[];
  readonly checkTimeoutMs: number;
  /** How long one round of checks answers every /readyz (config `server.readinessCacheMs`). */
  readonly cacheMs: number;
  /** True once shutdown began: not ready, so a balancer stops sending. */
  readonly closing: () => boolean;
  readonly metrics: ServerMetrics;
  readonly openApi: object;
}

const withTimeout = (p: Promise<void>, ms: number): Promise<void> =>
  Promise.race([p, new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

type CheckResults = readonly (readonly [string, string])[];

/** Runs every check (each within the timeout) → [name, 'ok' | why not]. */
async function runChecks(checks: readonly ReadinessCheck[], timeoutMs: number): Promise<CheckResults> {
  return Promise.all(
    checks.map(async (c) => {
      try {
        await withTimeout(c.check(), timeoutMs);
        return [c.name, 'ok'] as const;
      } catch (e) {
        return [c.name, e instanceof Error ? e.message : String(e)] as const;
      }
    }),
  );
}

/**
 * GET /healthz, /readyz, /metrics and /openapi.json; none of them is rate limited.
 * /readyz is open to anyone, so its probes of Kafka, the registry and Cassandra run at
 * most once per `cacheMs`: every /readyz in between (and during) shares that round.
 */
export function registerOpsRoutes(app: FastifyInstance, opts: OpsRoutesOptions): void {
  app.get('/healthz', { config: { rateLimit: false } }, async () => ({ status: 'alive' }));

  let round: { readonly startedAt: number; readonly results: Promise<CheckResults> } | undefined;
  app.get('/readyz', { config: { rateLimit: false } }, async (_request, reply) => {
    if (opts.closing()) return sendProblem(reply, problem('notReady', { detail: 'shutting down', retryAfterSeconds: 1 }));
    if (!round || performance.now() - round.startedAt >= opts.cacheMs) round = { startedAt: performance.now(), results: runChecks(opts.checks, opts.checkTimeoutMs) };
    const results = await round.results;
    const failed = results.filter(([, r]) => r !== 'ok');
    const checks = Object.fromEntries(results);
    if (failed.length > 0) return sendProblem(reply, problem('notReady', { detail: failed.map(([n, r]) => `${n}: ${r}`).join('; '), checks, retryAfterSeconds: 1 }));
    return { status: 'ready', checks };
  });

  app.get('/metrics', { config: { rateLimit: false, access: 'metrics' } }, async (_request, reply) => reply.type(opts.metrics.registry.contentType).send(await opts.metrics.registry.metrics()));
  app.get('/openapi.json', { config: { rateLimit: false } }, async () => opts.openApi);
}
