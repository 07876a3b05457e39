import { resolveStack, type ResolvedStack } from '../stack/resolveStack.ts';

/**
 * The stack a CLI command runs against: the external cluster from env if set, else
 * Docker, else the local JVM stack (started if needed). `keepStack` leaves a stack
 * this command started running afterwards.
 */
export function commandStack(opts: { keepStack: boolean }): Promise<ResolvedStack> {
  return resolveStack({ log: (line) => console.error(`[stack] ${line}`), keepRunning: opts.keepStack });
}
