import { describe, expect, it } from 'vitest';
import { coresByThreadPool, parseTaskStat, threadsOf, watchThreadPools, type ThreadCpu } from './threadPoolCpu.ts';

/** A /proc task stat line: fields after the name, utime and stime at positions 14 and 15 (1-based). */
const stat = (tid: number, name: string, utime: number, stime: number) =>
  `${tid} (${name}) S 1 1 1 0 -1 4194624 100 0 0 0 ${utime} ${stime} 0 0 20 0 80 0 1000 100000 200 18446744073709551615`;

describe('parseTaskStat', () => {
  it('reads the name, even with spaces and parentheses in it, and user + system ticks as seconds', () => {
    expect(parseTaskStat(stat(7, 'ReadStage-3', 250, 50))).toEqual({ name: 'ReadStage-3', seconds: 3 });
    expect(parseTaskStat(stat(8, 'G1 Conc#0', 10, 0))).toEqual({ name: 'G1 Conc#0', seconds: 0.1 });
    expect(parseTaskStat(stat(9, 'odd) name', 1, 1))).toEqual({ name: 'odd) name', seconds: 0.02 });
  });
});

describe('coresByThreadPool', () => {
  const snap = (entries: [string, string, number][]) => new Map<string, ThreadCpu>(entries.map(([tid, name, seconds]) => [tid, { name, seconds }]));

  it('adds up the threads of a pool over the window, new threads from zero, largest first', () => {
    const before = snap([['1', 'ReadStage-1', 10], ['2', 'ReadStage-2', 5], ['3', 'CompactionExecutor:1', 100], ['4', 'MemtableFlushWr', 7]]);
    const after = snap([['1', 'ReadStage-1', 12], ['2', 'ReadStage-2', 6], ['3', 'CompactionExecutor:1', 104], ['4', 'MemtableFlushWr', 7], ['5', 'ReadStage-3', 1]]);
    expect(coresByThreadPool(before, after, 10)).toEqual({ ReadStage: 0.4, CompactionExecutor: 0.4 });
    expect(Object.keys(coresByThreadPool(before, after, 10))).toEqual(['ReadStage', 'CompactionExecutor']);
  });

  it('leaves out a thread that ended in the window (its last seconds are unknown)', () => {
    expect(coresByThreadPool(snap([['1', 'GC Thread#0', 3]]), snap([]), 5)).toEqual({});
  });
});

describe('threadsOf / watchThreadPools on this process', () => {
  it('finds the main thread and measures CPU it burns', () => {
    expect(threadsOf(process.pid).get(String(process.pid))?.name).toBeTypeOf('string');
    const watch = watchThreadPools(process.pid);
    // 100 ms of CPU, however long a busy machine takes to give it (ten clock ticks: /proc cannot miss them all).
    const start = process.cpuUsage().user;
    let x = 0;
    while (process.cpuUsage().user - start < 100_000) for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + i);
    const cores = watch.stop();
    expect(x).toBeGreaterThan(0);
    expect(Object.values(cores).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('is empty for a process that does not exist', () => {
    expect(threadsOf(2 ** 22 + 1).size).toBe(0);
  });
});
