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
  /** True once shutdown began: not ready, so a balancer stops sending. */
  readonly closing: () => boolean;
  readonly metrics: ServerMetrics;
  readonly openApi: object;
}

const withTimeout = (p: Promise<void>, ms: number): Promise<void> =>
  Promise.race([p, new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/** GET /healthz, /readyz, /metrics and /openapi.json; none of them is rate limited. */
export function registerOpsRoutes(app: FastifyInstance, opts: OpsRoutesOptions): void {
  const config = { rateLimit: false };
  app.get('/healthz', { config }, async () => ({ status: 'alive' }));

  app.get('/readyz', { config }, async (_request, reply) => {
    if (opts.closing()) return sendProblem(reply, problem('notReady', { detail: 'shutting down', retryAfterSeconds: 1 }));
    const results = await Promise.all(
      opts.checks.map(async (c) => {
        try {
          await withTimeout(c.check(), opts.checkTimeoutMs);
          return [c.name, 'ok'] as const;
        } catch (e) {
          return [c.name, e instanceof Error ? e.message : String(e)] as const;
        }
      }),
    );
    const failed = results.filter(([, r]) => r !== 'ok');
    const checks = Object.fromEntries(results);
    if (failed.length > 0) return sendProblem(reply, problem('notReady', { detail: failed.map(([n, r]) => `${n}: ${r}`).join('; '), checks, retryAfterSeconds: 1 }));
    return { status: 'ready', checks };
  });

  app.get('/metrics', { config }, async (_request, reply) => reply.type(opts.metrics.registry.contentType).send(await opts.metrics.registry.metrics()));
  app.get('/openapi.json', { config }, async () => opts.openApi);
}
