/**
 * Stops processes (SIGSTOP) and continues them (SIGCONT) by pid, so one
 * system is up at a time while the other is measured. A stopped process only
 * acts on SIGTERM once continued, so `resume` must run before they are
 * stopped for good (it is idempotent).
 */
export function createProcessPause(pids: readonly number[]) {
  let paused = false;
  const signal = (s: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, s);
      } catch {
        // gone already: nothing to pause or resume
      }
    }
  };
  return {
    pause(): void {
      if (paused) return;
      signal('SIGSTOP');
      paused = true;
    },
    resume(): void {
      if (!paused) return;
      signal('SIGCONT');
      paused = false;
    },
    get paused() {
      return paused;
    },
  };
}
