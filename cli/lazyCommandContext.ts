import type { CommandContext, GlobalFlags } from './commandContext.ts';

/**
 * `withCommandContext`, loaded when a command runs: the stack, the Kafka and Cassandra clients and
 * pino stay unloaded for `--help` and flag errors, which then answer in well under 0.3 s (bench:cli).
 */
export async function withCommandContext<T>(flags: GlobalFlags, fn: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const { withCommandContext: run } = await import('./commandContext.ts');
  return run(flags, fn);
}
