import type { Logger } from 'pino';

/**
 * For the composition root (cli/): on the first SIGTERM/SIGINT, stops every
 * runner gracefully (each finishes and commits its chunk in flight, then
 * leaves its group) and calls `onStopped`. A second signal is left to Node's
 * default handling once the listeners are removed. Returns a function that
 * removes the listeners.
 */
export function stopOnSignals(
  runners: readonly { stop(): Promise<void> }[],
  { logger, onStopped = () => {}, signals = ['SIGTERM', 'SIGINT'] }: { logger: Logger; onStopped?: (error?: unknown) => void; signals?: readonly NodeJS.Signals[] },
): () => void {
  const remove = (): void => {
    for (const s of signals) process.off(s, handler);
  };
  function handler(signal: NodeJS.Signals): void {
    remove();
    logger.info({ signal }, 'stopping: finishing the chunks in flight');
    Promise.all(runners.map((r) => r.stop())).then(
      () => onStopped(),
      (e: unknown) => {
        logger.error({ err: e }, 'graceful stop failed');
        onStopped(e);
      },
    );
  }
  for (const s of signals) process.on(s, handler);
  return remove;
}
