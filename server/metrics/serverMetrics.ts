import { Counter, Histogram, type Registry } from 'prom-client';
import { createMetricsRegistry } from '../../metrics/index.ts';

/**
 * The server's own series (requests, token waits, mutations, auth failures, shed load) on `registry`, which GET /metrics
 * serves; `edgestream serve` passes the registry its reader's metrics (metrics/createReadMetrics)
 * and split directory series are registered in, so one scrape shows them all.
 */
export interface ServerMetrics {
  readonly registry: Registry;
  readonly requests: Histogram<'method' | 'route' | 'status'>;
  readonly consistencyWaits: Histogram<'outcome'>;
  readonly mutations: Counter<'op' | 'outcome'>;
  /** Requests refused by authentication or authorisation, by reason (missing, malformed, expired, bad_signature, invalid_claims, forbidden). */
  readonly authFailures: Counter<'reason'>;
  /** Requests refused with 503 because a server-wide bound was full (reads_in_flight, token_waiters). */
  readonly shed: Counter<'bound'>;
}

export function createServerMetrics(registry: Registry = createMetricsRegistry()): ServerMetrics {
  return {
    registry,
    requests: new Histogram({
      name: 'edgestream_http_request_duration_seconds',
      help: 'HTTP requests by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    consistencyWaits: new Histogram({
      name: 'edgestream_consistency_wait_seconds',
      help: 'time reads with ?after= waited for their token, by outcome (visible, unknown, timeout)',
      labelNames: ['outcome'],
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers: [registry],
    }),
    mutations: new Counter({
      name: 'edgestream_http_mutations_total',
      help: 'mutations received over HTTP, by op and outcome (published, rejected, failed)',
      labelNames: ['op', 'outcome'],
      registers: [registry],
    }),
    authFailures: new Counter({
      name: 'edgestream_http_auth_failures_total',
      help: 'requests refused 401/403, by reason (missing, malformed, expired, bad_signature, invalid_claims, forbidden)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    shed: new Counter({
      name: 'edgestream_http_shed_total',
      help: 'requests answered 503 because a server-wide bound was full, by bound (reads_in_flight, token_waiters)',
      labelNames: ['bound'],
      registers: [registry],
    }),
  };
}
