import { describe, expect, it } from 'vitest';
import { groupByReplicaSet, oneReplicaGroup } from './replicaGroups.ts';

describe('groupByReplicaSet', () => {
  it('groups ids by replica set in first-seen order, each id once, unknown ones together', () => {
    const sets: Record<string, string | undefined> = { a: 'h1', b: 'h2', c: 'h1', d: undefined, e: 'h2', f: undefined };
    expect(groupByReplicaSet(['a', 'b', 'c', 'a', 'd', 'e', 'f'], (id) => sets[id])).toEqual([
      { replicas: 'h1', ids: ['a', 'c'] },
      { replicas: 'h2', ids: ['b', 'e'] },
      { replicas: undefined, ids: ['d', 'f'] },
    ]);
  });

  it('returns no group for no ids, and one group for a backend without a token map', () => {
    expect(groupByReplicaSet([], () => 'h')).toEqual([]);
    expect(oneReplicaGroup([])).toEqual([]);
    expect(oneReplicaGroup(['x', 'y', 'x'])).toEqual([{ replicas: 'local', ids: ['x', 'y'] }]);
  });
});
