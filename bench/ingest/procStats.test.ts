import { describe, expect, it } from 'vitest';
import { watchCpu } from './procStats.ts';

/** A pid no process has (above the kernel's pid_max of 2^22). */
const GONE = 2 ** 22 + 7;

describe('watchCpu', () => {
  it('reports a name whose pids are all readable, one pid or several added up, and leaves out a name with none', () => {
    const watch = watchCpu({ one: process.pid, several: [process.pid, GONE], none: GONE, nothing: [] });
    const names = Object.keys(watch.stop().coresByProcess);
    expect(names.sort()).toEqual(['one', 'several']);
  });
});
