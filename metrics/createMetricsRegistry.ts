import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A fresh Prometheus registry for one process, with Node's process metrics
 * (CPU, memory, event-loop lag, GC: prom-client's defaults). Every edgestream
 * series registers into a registry passed in, never prom-client's global one,
 * so tests and a process serving several roles stay apart.
 */
export function createMetricsRegistry(opts: { readonly processMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  if (opts.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  return registry;
}
