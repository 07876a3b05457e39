/**
 * SIGINT/SIGTERM during a bench run: `cleanup` once (the keyspace and topics
 * go away), then exit 130. `release` removes the handlers; `cleanedUp` tells
 * whether a signal already ran (or is running) the cleanup.
 */
export function cleanUpOnSignal(cleanup: () => Promise<void>, say: (line: string) => void) {
  let stopping: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    say(`\n${signal}: cleaning up…`);
    stopping = cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    cleanedUp: () => stopping !== undefined,
    release() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
