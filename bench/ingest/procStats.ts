import fs from 'node:fs';
import os from 'node:os';

/** Linux /proc readers for the bench: memory and CPU time of a process, and of the whole machine. */

const CLOCK_TICKS_PER_SECOND = 100; // sysconf(_SC_CLK_TCK) on Linux x86-64/arm64

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m?.[1] ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size now, in bytes. */
export const rssBytes = (pid: number): number | undefined => statusField(pid, 'VmRSS');
/** Peak resident set size since the process started (VmHWM), in bytes. */
export const peakRssBytes = (pid: number): number | undefined => statusField(pid, 'VmHWM');

/** User + system CPU seconds in a `/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat` text. */
export function statCpuSeconds(stat: string): number {
  // The command name (field 2) may contain spaces; fields after the closing paren are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** User + system CPU seconds a process has used so far (its own threads, not children). */
export function cpuSeconds(pid: number): number | undefined {
  try {
    return statCpuSeconds(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Busy and total CPU seconds of the whole machine (all cores) since boot, from /proc/stat. */
export function machineCpuSeconds(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / CLOCK_TICKS_PER_SECOND, total: total / CLOCK_TICKS_PER_SECOND };
}

export interface CpuWatch {
  /** CPU seconds each watched process used since the watch started, plus the machine's busy core-seconds. */
  stop(): CpuReport;
}

export interface CpuReport {
  readonly wallSeconds: number;
  /** Average cores used per process over the window (cpu seconds / wall seconds). */
  readonly coresByProcess: Readonly<Record<string, number>>;
  /** Average cores busy on the whole machine (everything, including other users' work). */
  readonly machineBusyCores: number;
  readonly machineCores: number;
}

/** Named processes to watch: one pid, or several whose CPU is added up under the name (a cluster's three Cassandra nodes). */
export type ProcessPids = Readonly<Record<string, number | readonly number[] | undefined>>;

/** CPU seconds of each pid now (undefined for a pid that is gone). */
const cpuSecondsOf = (pid: number | readonly number[] | undefined): (number | undefined)[] => (pid === undefined ? [] : typeof pid === 'number' ? [cpuSeconds(pid)] : pid.map(cpuSeconds));

/** Starts measuring CPU of named pids (missing pids are skipped) and of the machine. */
export function watchCpu(pids: ProcessPids): CpuWatch {
  const t0 = performance.now();
  const start = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSecondsOf(pid)]));
  const m0 = machineCpuSeconds();
  return {
    stop() {
      const wall = (performance.now() - t0) / 1000;
      const m1 = machineCpuSeconds();
      const coresByProcess: Record<string, number> = {};
      for (const [name, pid] of Object.entries(pids)) {
        const a = start[name] ?? [];
        // Only the pids readable at both ends count (a node that died or restarted meanwhile is left out).
        const used = cpuSecondsOf(pid).reduce<number | undefined>((sum, b, i) => (a[i] === undefined || b === undefined ? sum : (sum ?? 0) + (b - (a[i] as number))), undefined);
        if (used !== undefined && wall > 0) coresByProcess[name] = Math.round((used / wall) * 100) / 100;
      }
      return {
        wallSeconds: Math.round(wall * 10) / 10,
        coresByProcess,
        machineBusyCores: wall > 0 ? Math.round(((m1.busy - m0.busy) / wall) * 100) / 100 : 0,
        machineCores: os.cpus().length,
      };
    },
  };
}
