/**
 * Tasks that may start more tasks (a traversal's batch schedules the
 * continuations of its full pages): `idle()` resolves once every task added
 * so far, and every one they added, has finished, or rejects with the first
 * failure. Every task gets a handler when it is added, so a failure is never
 * unhandled while earlier tasks run.
 */
export interface TaskSet {
  add(task: Promise<unknown>): void;
  idle(): Promise<void>;
}

export function createTaskSet(): TaskSet {
  let running = 0;
  let resolveIdle: () => void = () => undefined;
  let rejectIdle: (e: unknown) => void = () => undefined;
  const idle = new Promise<void>((resolve, reject) => {
    resolveIdle = resolve;
    rejectIdle = reject;
  });
  idle.catch(() => undefined); // reported to whoever awaits idle()
  return {
    add(task) {
      running++;
      task.then(() => {
        if (--running === 0) resolveIdle();
      }, rejectIdle);
    },
    idle: () => (running === 0 ? Promise.resolve() : idle),
  };
}
