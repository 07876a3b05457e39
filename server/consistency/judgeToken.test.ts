import { describe, expect, it } from 'vitest';
import { judgeToken, type OffsetSnapshot } from './judgeToken.ts';

const snapshot = (o: Partial<Record<'end' | 'committed' | 'repaired' | 'repairEnd', bigint>> = {}): OffsetSnapshot => ({
  inputTopic: 'p.edge-mutations',
  inputEnd: new Map([[0, 100n], [1, o.end ?? 100n]]),
  fanOutCommitted: new Map(o.committed === undefined ? [] : [[1, o.committed]]),
  repairCommitted: new Map([[1, o.repaired ?? 0n]]),
  repairEnd: new Map([[1, o.repairEnd ?? 0n]]),
});
const token = (offset: string, partition = 1, topic = 'p.edge-mutations') => ({ topic, partition, offset });

describe('judgeToken', () => {
  it.each([
    ['committed past the record, repair queue empty', token('41'), snapshot({ committed: 42n }), 'visible'],
    ['committed up to the record only (a commit names the next offset)', token('42'), snapshot({ committed: 42n }), 'pending'],
    ['never committed', token('0'), snapshot(), 'pending'],
    ['committed past, but a repair on the partition is uncommitted', token('41'), snapshot({ committed: 90n, repaired: 3n, repairEnd: 4n }), 'pending'],
    ['committed past, repairs all committed', token('41'), snapshot({ committed: 90n, repaired: 4n, repairEnd: 4n }), 'visible'],
    ['another topic', token('1', 1, 'q.edge-mutations'), snapshot({ committed: 90n }), 'unknown'],
    ['a partition the topic lacks', token('1', 7), snapshot({ committed: 90n }), 'unknown'],
    ['an offset not written yet', token('100'), snapshot({ committed: 90n }), 'unknown'],
  ] as const)('%s', (_name, t, s, kind) => {
    expect(judgeToken(t, s).kind).toBe(kind);
  });

  it('names the partition and the offsets in its reason', () => {
    expect(judgeToken(token('42'), snapshot({ committed: 42n }))).toEqual({
      kind: 'pending',
      reason: 'the fan-out has committed p.edge-mutations/1 up to 42; the token needs past 42',
    });
  });
});
