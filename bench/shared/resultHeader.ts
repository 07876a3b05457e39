import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { codeVersion, collectVersions, machine } from './benchEnvironment.ts';
import type { StackLabel } from './benchStack.ts';

/** What every bench knows about its run when it builds its result. */
export interface ResultContext<A> {
  readonly args: A;
  readonly started: Date;
  readonly machine: ReturnType<typeof machine>;
  readonly versions: Awaited<ReturnType<typeof collectVersions>>;
  readonly code: ReturnType<typeof codeVersion>;
  readonly config: EdgestreamConfig;
  /** Which stack it ran on (--stack): nodes, replication, levels. */
  readonly stack?: StackLabel;
}

/**
 * The fields every bench result JSON starts with: what ran, when, for how
 * long, on what machine, stack and versions, at which commit, how it measures,
 * its flags and the pipeline config (run-specific names replaced by placeholders).
 */
export function resultHeader<M, A>(o: ResultContext<A> & { readonly benchmark: string; readonly method: M }) {
  return {
    benchmark: o.benchmark,
    date: o.started.toISOString(),
    durationSeconds: Math.round((Date.now() - o.started.getTime()) / 1000),
    machine: o.machine,
    ...(o.stack ? { stack: o.stack } : {}),
    versions: o.versions,
    code: o.code,
    method: o.method,
    args: o.args,
    config: { ...o.config, topics: { ...o.config.topics, prefix: 'bench.<run>.' }, cassandra: { ...o.config.cassandra, keyspace: 'bench_<run>' } },
  };
}
