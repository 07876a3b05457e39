import { describe, expect, it } from 'vitest';
import { namespaceStatements } from '../../sinks/cassandra/namespaceStatements.ts';
import type { Mutation } from '../../sinks/store/TwoLevelMapStore.ts';
import { chunksByPartition, sharesEdge, waveRequests, type BatchLimits } from './rawIngestPlan.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const put = (namespace: string, id: string, key: string, writeTime = 10n): Mutation => ({ namespace, id, writeTime, additions: [{ key: bytes(key), value: bytes(`v-${key}`) }], deletions: [] });
const del = (namespace: string, id: string, key: string, writeTime = 5n): Mutation => ({ namespace, id, writeTime, additions: [], deletions: [bytes(key)] });
const LIMITS: BatchLimits = { maxPartitions: 10, maxStatements: 64, maxBytes: 5 * 1024, maxPartitionBatchBytes: 1 << 20 };
const plan = (mutations: Mutation[], limits = LIMITS, replicaSetOf: (id: string) => string | undefined = () => 'node1') =>
  waveRequests(mutations, { statementsOf: (ns) => namespaceStatements('ks', ns), replicaSetOf, limits });

describe('waveRequests (the store’s batch shape for one wave)', () => {
  it('puts the rows of one id in different namespaces into one single-partition batch, deletions before additions', () => {
    const requests = plan([put('t_out', 'a', 'b'), put('t_out_recent', 'a', 'r'), del('t_out_recent', 'a', 'old')], { ...LIMITS, maxPartitions: 1 });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.routingId).toBe('a');
    expect(requests[0]?.statements.map((s) => s.query.split(' ')[0])).toEqual(['INSERT', 'DELETE', 'INSERT']);
    expect(requests[0]?.statements.every((s) => s.params.includes('a'))).toBe(true);
  });

  it('merges partitions of one replica set up to maxPartitions per batch, routed by the first', () => {
    const requests = plan(Array.from({ length: 25 }, (_, i) => put('t_out', `s${i}`, 'x')));
    expect(requests.map((r) => r.statements.length)).toEqual([10, 10, 5]);
    expect(requests.map((r) => r.routingId)).toEqual(['s0', 's10', 's20']);
  });

  it('keeps partitions of different or unknown replica sets apart', () => {
    const requests = plan([put('t_out', 'a', 'x'), put('t_out', 'b', 'x'), put('t_out', 'c', 'x'), put('t_out', 'd', 'x')], LIMITS, (id) => (id === 'd' ? undefined : id === 'b' ? 'n2' : 'n1'));
    expect(requests.map((r) => r.statements.map((s) => s.params[0]))).toEqual([['a', 'c'], ['b'], ['d']]);
  });

  it('cuts a partition with more rows than maxStatements into several batches', () => {
    const requests = plan(Array.from({ length: 70 }, (_, i) => put('t_in', 'celebrity', `f${i}`)));
    expect(requests.map((r) => r.statements.length)).toEqual([64, 6]);
  });

  it('writes every row once, at its own write time', () => {
    const requests = plan([put('t_out', 'a', 'b', 7n), put('t_in', 'b', 'a', 7n), del('t_out_recent', 'a', 'k', 3n)]);
    const statements = requests.flatMap((r) => r.statements);
    expect(statements).toHaveLength(3);
    expect(statements.filter((s) => s.query.startsWith('INSERT')).map((s) => s.params[4])).toEqual([7n, 7n]);
    expect(statements.find((s) => s.query.startsWith('DELETE'))?.params[0]).toBe(3n);
  });

  it('refuses a partition clear instead of sending another shape', () => {
    expect(() => plan([{ ...put('t_props', 'p', 'x'), clear: true }])).toThrow(/clears/);
  });
});

describe('chunksByPartition', () => {
  it('cuts each partition’s events, in order, into chunks of at most chunkEvents, yielding a chunk when it fills', () => {
    const events = Array.from({ length: 11 }, (_, i) => i);
    const chunks = [...chunksByPartition(events, (e) => e % 2, 3)];
    expect(chunks).toEqual([
      { partition: 0, events: [0, 2, 4] },
      { partition: 1, events: [1, 3, 5] },
      { partition: 0, events: [6, 8, 10] },
      { partition: 1, events: [7, 9] },
    ]);
  });

  it('puts one hot key’s events all in one partition’s chunks', () => {
    const chunks = [...chunksByPartition(Array.from({ length: 7 }, () => 'hot'), () => 4, 5)];
    expect(chunks.map((c) => [c.partition, c.events.length])).toEqual([[4, 5], [4, 2]]);
  });

  it('refuses a chunk size below 1', () => {
    expect(() => [...chunksByPartition([1], () => 0, 0)]).toThrow(RangeError);
  });
});

describe('sharesEdge', () => {
  it('is true only when the two chunks have an edge in common', () => {
    expect(sharesEdge(new Set(['a>b', 'c>d']), new Set(['x>y', 'c>d', 'e>f']))).toBe(true);
    expect(sharesEdge(new Set(['a>b']), new Set(['b>a']))).toBe(false);
    expect(sharesEdge(new Set(), new Set(['a>b']))).toBe(false);
  });
});
