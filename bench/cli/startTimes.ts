import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { median } from '../ingest/stats.ts';

/** One CLI invocation the bench times: what it is called in the report, and its arguments after `bin/edgestream.js`. */
export interface CliCase {
  readonly label: string;
  readonly args: readonly string[];
  /** `args` are Node's own, without `bin/edgestream.js` (the floor: `node -e 0`). */
  readonly nodeOnly?: boolean;
}

export interface CaseTimes {
  readonly label: string;
  /** The first run, not in the median: it fills the compile cache a fresh checkout starts without. */
  readonly firstMs: number;
  readonly repeatsMs: readonly number[];
  readonly medianMs: number;
  /** CPU (user + sys) of each repeat: what the command itself costs, whatever else loads the machine. */
  readonly repeatsCpuMs: readonly number[];
  readonly medianCpuMs: number;
}

/**
 * CPU time (ms) of this process's reaped children so far, from /proc/self/stat (cutime + cstime, in
 * clock ticks of 10 ms); NaN where there is no /proc. Wall time alone says little on a loaded machine.
 */
export function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Wall time from spawn to exit of `node bin/edgestream.js <args>`, `repeats` times after one first run;
 * a run that exits non-zero stops the bench with its stderr (a failing command is not a start time).
 */
export function timeCase(o: { node: string; bin: string; cwd: string; env: NodeJS.ProcessEnv; repeats: number; case: CliCase; onRun?: (ms: number, i: number) => void }): CaseTimes {
  const cpu: number[] = [];
  const once = (i: number): number => {
    const cpu0 = childrenCpuMs();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(o.node, o.case.nodeOnly === true ? [...o.case.args] : [o.bin, ...o.case.args], { cwd: o.cwd, env: o.env, encoding: 'utf8', timeout: 120_000 });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${o.case.label}: exit ${r.status ?? r.signal}: ${(r.stderr || r.error?.message || '').slice(-2000)}`);
    if (i > 0) cpu.push(childrenCpuMs() - cpu0);
    o.onRun?.(ms, i);
    return ms;
  };
  const firstMs = once(0);
  const repeatsMs = Array.from({ length: o.repeats }, (_, i) => once(i + 1));
  return { label: o.case.label, firstMs, repeatsMs, medianMs: median(repeatsMs), repeatsCpuMs: cpu, medianCpuMs: median(cpu) };
}
