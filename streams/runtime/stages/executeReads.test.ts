import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { cellKey } from '../../../sinks/store/index.ts';
import type { ReadRequest } from '../../../processors/index.ts';
import { startRetrySchedule } from '../failures/backoff.ts';
import { executeReads } from './readStage.ts';
import { faultyStore } from '../testing/faultyStore.ts';
import { createTestClock } from '../testing/testClock.ts';
import { TEST_NAMESPACES } from '../testing/testProcessor.ts';

const read = (namespace: string, id: string, key: number): ReadRequest => ({ namespace, id, key: Uint8Array.of(key) });
const keyed = (rs: ReadRequest[]) => new Map(rs.map((r) => [cellKey(r.namespace, r.id, r.key), r]));

describe('executeReads', () => {
  it('reads the requests of one namespace with one getCells, and a lone request with get', async () => {
    const memory = createMemoryStore({ namespaces: TEST_NAMESPACES });
    await memory.namespace('t_out').put('b', Uint8Array.of(1), Uint8Array.of(9), 5n);
    const { store, readCalls: calls } = faultyStore(memory);
    const requests = [read('t_out', 'a', 1), read('t_out', 'b', 1), read('t_out', 'c', 1), read('t_out', 'a', 2), read('t_in', 'a', 1)];
    const clock = createTestClock();
    const { cells, failures } = await executeReads(store, keyed(requests), 8, startRetrySchedule({ budgetMs: 0, initialBackoffMs: 1, maxBackoffMs: 1 }, clock));
    expect(calls).toEqual([['getCells', 't_out', 'a', 'b', 'c', 'a'], ['get', 't_in', 'a']]);
    expect(failures.size).toBe(0);
    expect(requests.map((r) => cells.get(cellKey(r.namespace, r.id, r.key))?.writeTime)).toEqual([undefined, 5n, undefined, undefined, undefined]);
    expect(requests.every((r) => cells.has(cellKey(r.namespace, r.id, r.key)))).toBe(true);
  });

  it('a failed getCells fails each of its requests, and the retry asks for all of them again', async () => {
    const faulty = faultyStore(createMemoryStore({ namespaces: TEST_NAMESPACES }));
    faulty.failReads((namespace, call) => (namespace === 't_out' && call === 0 ? 'timeout' : undefined));
    const { store, readCalls: calls } = faulty;
    const requests = [read('t_out', 'a', 1), read('t_out', 'b', 1)];
    const clock = createTestClock();
    const retried = await executeReads(store, keyed(requests), 8, startRetrySchedule({ budgetMs: 1_000, initialBackoffMs: 10, maxBackoffMs: 10 }, clock));
    expect(calls).toEqual([['getCells', 't_out', 'a', 'b'], ['getCells', 't_out', 'a', 'b']]);
    expect(retried.failures.size).toBe(0);
  });

  it('a shared read the store rejects is read again cell by cell at once, so only the bad cell fails', async () => {
    const memory = createMemoryStore({ namespaces: TEST_NAMESPACES });
    await memory.namespace('t_out').put('b', Uint8Array.of(1), Uint8Array.of(9), 5n);
    const faulty = faultyStore(memory);
    faulty.failReads((namespace, _call, ids) => (namespace === 't_out' && ids.includes('bad') ? 'invalid_argument' : undefined));
    const requests = [read('t_out', 'a', 1), read('t_out', 'bad', 1), read('t_out', 'b', 1)];
    const clock = createTestClock();
    const { cells, failures } = await executeReads(faulty.store, keyed(requests), 8, startRetrySchedule({ budgetMs: 0, initialBackoffMs: 10, maxBackoffMs: 10 }, clock));
    expect(faulty.readCalls).toEqual([['getCells', 't_out', 'a', 'bad', 'b'], ['get', 't_out', 'a'], ['get', 't_out', 'bad'], ['get', 't_out', 'b']]);
    expect([...failures.keys()]).toEqual([cellKey('t_out', 'bad', Uint8Array.of(1))]);
    expect(failures.get(cellKey('t_out', 'bad', Uint8Array.of(1)))?.decision).toBe('dead-letter');
    expect(cells.get(cellKey('t_out', 'b', Uint8Array.of(1)))?.writeTime).toBe(5n);
    expect(cells.has(cellKey('t_out', 'a', Uint8Array.of(1)))).toBe(true);
  });
});
