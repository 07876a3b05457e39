import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../sinks/memory/createMemoryStore.ts';
import type { BackgroundBudget } from './backgroundBudget.ts';
import { budgetedStore } from './budgetedStore.ts';

const key = (s: string) => new TextEncoder().encode(s);

/** A budget that counts the calls it ran. */
function countingBudget(): BackgroundBudget & { calls: number } {
  const b = {
    calls: 0,
    run<T>(work: () => Promise<T>): Promise<T> {
      b.calls++;
      return work();
    },
    stats: () => ({ limit: 1, inFlight: 0, queued: 0, canaryMs: undefined, congestedProbes: 0, probes: 0 }),
    start: () => undefined,
    stop: () => undefined,
  };
  return b;
}

describe('budgetedStore', () => {
  it('sends every read and write through the budget and answers as the store does', async () => {
    const inner = createMemoryStore({ namespaces: [{ name: 'ns' }] });
    const budget = countingBudget();
    const store = budgetedStore(inner, budget);
    const ns = store.namespace('ns');
    await ns.put('a', key('k1'), key('v1'), 10n);
    await store.mutateMany([{ namespace: 'ns', id: 'a', writeTime: 11n, deletions: [], additions: [{ key: key('k2'), value: key('v2') }] }]);
    expect((await ns.get('a', key('k1')))?.value).toEqual(key('v1'));
    expect((await ns.getKeys('a', [key('k1'), key('k2')])).map((c) => c?.writeTime)).toEqual([10n, 11n]);
    expect((await ns.getCells([{ id: 'a', key: key('k2') }]))[0]?.value).toEqual(key('v2'));
    expect((await ns.slice('a', { limit: 10 })).cells).toHaveLength(2);
    expect((await ns.sliceMany(['a', 'b'], { limit: 10 })).map((p) => p.cells.length)).toEqual([2, 0]);
    expect((await ns.scanPrefix('a', key('k'), { limit: 10 })).cells).toHaveLength(2);
    await ns.delete('a', key('k1'), 12n);
    expect(await ns.get('a', key('k1'))).toBeUndefined();
    expect(budget.calls).toBe(10);
    expect(ns.namespace).toBe('ns');
  });
});
