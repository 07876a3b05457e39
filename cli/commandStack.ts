import type { ClusterConfig } from '../schemas/config/clusterConfig.ts';
import { resolveStack, type ResolvedStack } from '../stack/resolveStack.ts';
import { clusterClientOptions } from './clusterClientOptions.ts';

/**
 * The stack a CLI command runs against: the config's `cluster` section if present (and then
 * nothing else), else the external cluster from env, else Docker, else the local JVM stack
 * (started if needed). `keepStack` leaves a stack this command started running afterwards.
 */
export function commandStack(opts: { keepStack: boolean; cluster?: ClusterConfig | undefined }): Promise<ResolvedStack> {
  return resolveStack({
    log: (line) => console.error(`[stack] ${line}`),
    keepRunning: opts.keepStack,
    ...(opts.cluster ? { configured: clusterClientOptions(opts.cluster) } : {}),
  });
}
