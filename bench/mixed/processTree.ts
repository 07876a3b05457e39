import fs from 'node:fs';

/** A process tree's pids and CPU from /proc: a multi-process server (PostgreSQL's postmaster and its backends) measured and paused as one. */

const CLOCK_TICKS_PER_SECOND = 100; // sysconf(_SC_CLK_TCK) on Linux x86-64/arm64

/** The fields after the command name of /proc/<pid>/stat (the name may contain spaces), or undefined when the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Every descendant of `root` (not root itself) among (pid, parent pid) pairs, parents before children. */
export function descendantsIn(pairs: readonly (readonly [pid: number, ppid: number])[], root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of pairs) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [root];
  const seen = new Set(queue);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** (pid, parent pid) of every process now. */
function processPairs(): [number, number][] {
  const pairs: [number, number][] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = Number(statFields(Number(name))?.[1]);
    if (Number.isInteger(ppid)) pairs.push([Number(name), ppid]);
  }
  return pairs;
}

/** The live descendants of `root` now. */
export const descendantsOf = (root: number): number[] => descendantsIn(processPairs(), root);

/**
 * CPU seconds of the tree under `root` so far: each live descendant's own
 * user + system time, plus root's own and its reaped children's (cutime +
 * cstime), so a backend that exits between two readings is still counted
 * once the root has waited for it.
 */
export function treeCpuSeconds(root: number): number | undefined {
  const own = (f: string[] | undefined, reaped: boolean) => (f ? Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0) : 0);
  const rootFields = statFields(root);
  if (!rootFields) return undefined;
  return (own(rootFields, true) + descendantsOf(root).reduce((s, pid) => s + own(statFields(pid), false), 0)) / CLOCK_TICKS_PER_SECOND;
}

/** Average cores the tree under `root` used between `start()` and `stop()`; undefined when root is gone. */
export function watchTreeCpu(root: number) {
  const t0 = performance.now();
  const c0 = treeCpuSeconds(root);
  return {
    stop(): number | undefined {
      const wall = (performance.now() - t0) / 1000;
      const c1 = treeCpuSeconds(root);
      return c0 === undefined || c1 === undefined || wall <= 0 ? undefined : Math.round(((c1 - c0) / wall) * 100) / 100;
    },
  };
}

/**
 * Stops (SIGSTOP) and continues (SIGCONT) a whole tree by pid: root first, so
 * it forks nothing while its children are listed and stopped; continued in
 * the reverse order. Idempotent, like createProcessPause.
 */
export function createTreePause(root: number) {
  let stopped: number[] | undefined;
  const signal = (pid: number, s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // gone already: nothing to stop or continue
    }
  };
  return {
    pause(): void {
      if (stopped) return;
      signal(root, 'SIGSTOP');
      stopped = [root, ...descendantsOf(root)];
      for (const pid of stopped.slice(1)) signal(pid, 'SIGSTOP');
    },
    resume(): void {
      if (!stopped) return;
      for (const pid of [...stopped].reverse()) signal(pid, 'SIGCONT');
      stopped = undefined;
    },
    get paused() {
      return stopped !== undefined;
    },
  };
}
