import { describe, expect, it } from 'vitest';
import {
  decodeDegreeDirtyKey,
  DEGREE_DIRTY_NAMESPACE,
  degreeDirtyShard,
  degreeIntentShard,
  encodeLinkValue,
  encodeNodeTombstoneValue,
  forwardLinkNamespace,
  NODE_TOMBSTONES_NAMESPACE,
  type LinkValue,
} from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { readResultsFrom } from '../../test/support/model/readResultsFrom.ts';
import { renderMutations } from '../../test/support/model/renderMutation.ts';
import { allWrites, writeWaves, type ProcessorOutput } from '../contract/EventProcessor.ts';
import type { Mutation } from '../../sinks/store/TwoLevelMapStore.ts';
import { createFanOutProcessor } from './createFanOutProcessor.ts';

const fanOut = createFanOutProcessor({ edgeTypes: [{ name: 'follows' }, { name: 'likes' }, { name: 'friends', symmetric: true }] });
const ctx = { wallClockMicros: 777n };

const event = (e: Partial<EdgeMutation>): EdgeMutation => ({
  mutation_id: 'm1',
  op: 'ADD_EDGE',
  edge_type: 'follows',
  src: 'alice',
  dst: 'bob',
  event_time: 100n,
  properties: {},
  property_keys: [],
  ...e,
});

/** What the store holds before the event: node tombstones by vertex, and the link of the event's edge (`forward`, read from its forward cell). */
interface Existing {
  readonly tombstones?: Readonly<Record<string, { readonly time: bigint; readonly mutationId: string }>>;
  readonly forward?: LinkValue;
}

function run(e: EdgeMutation, existing: Existing = {}): ProcessorOutput {
  return fanOut.process(e, readResultsFrom(fanOut.reads(e), lookupOf(e, existing)), ctx);
}

/** Answers the fan-out's reads of `e` from `existing`. */
function lookupOf(e: EdgeMutation, existing: Existing): (r: { namespace: string; id: string }) => Cell | undefined {
  return (r) => {
    if (r.namespace === NODE_TOMBSTONES_NAMESPACE) {
      const t = existing.tombstones?.[r.id];
      const value = t && encodeNodeTombstoneValue({ mutationId: t.mutationId, writtenAtMicros: 1n });
      return t && value ? { key: new Uint8Array(0), value, writeTime: t.time } : undefined;
    }
    if (r.namespace === forwardLinkNamespace(e.edge_type) && existing.forward !== undefined) {
      return { key: Buffer.from(e.dst), value: encodeLinkValue(existing.forward), writeTime: existing.forward.time };
    }
    return undefined;
  };
}

/**
 * The follow-ups of a link op: its two marks, each naming its writer (the peer and the event's mutation id), in their
 * vertices' shards, and the deletion of the attempt's intents in the event's intent shard (rendered without their stamp;
 * see degreeDirtyMarks.test.ts).
 */
const marks = (type: string, src: string, dst: string, mutationId = 'm1'): string[] => {
  const out = `${type}/out/${src} by ${dst}/${mutationId}`;
  const into = `${type}/in/${dst} by ${src}/${mutationId}`;
  const [s, d, i] = [degreeDirtyShard(src), degreeDirtyShard(dst), degreeIntentShard(src, dst, mutationId)];
  const shards: [string, string[]][] = s === d ? [[s, [out, into]]] : [[s, [out]], [d, [into]]];
  const deletions = (id: string) => [out, into].map((k) => `degree_dirty[${id}] @runtime del ${k}`);
  const lines = shards.flatMap(([id, keys]) => [...(id === i ? deletions(id) : []), ...keys.map((k) => `degree_dirty[${id}] @runtime put ${k} = ''`)]);
  return shards.some(([id]) => id === i) ? lines : [...lines, ...deletions(i)];
};
/** The degree intents a link op writes in its first wave (docs §5 "Counts"); the tables below leave them out. */
const isIntent = (m: Mutation) => m.namespace === DEGREE_DIRTY_NAMESPACE;

describe('fan-out: event → exact writes', () => {
  it.each<[string, EdgeMutation, Existing, string[], string[]]>([
    [
      'ADD_EDGE fans out to forward, reverse, both recent indexes and one props row per property (ordered by name)',
      event({ properties: { weight: 1.5, since: 2020n } }),
      {},
      [
        'follows_out[alice] @100 put bob = ACTIVE@100 m1',
        'follows_in[bob] @100 put alice = ACTIVE@100 m1',
        'follows_props[alice␀bob] @100 put fwd:since = 2020n',
        'follows_props[alice␀bob] @100 put fwd:weight = 1.5',
        'follows_out_recent[alice] @100 put (100,bob) = m1',
        'follows_in_recent[bob] @100 put (100,alice) = m1',
      ],
      marks('follows', 'alice', 'bob'),
    ],
    [
      'reverse link swaps endpoints; the props partition id does not, the bag is its backward one',
      event({ src: 'bob', dst: 'alice', properties: { close: true } }),
      {},
      [
        'follows_out[bob] @100 put alice = ACTIVE@100 m1',
        'follows_in[alice] @100 put bob = ACTIVE@100 m1',
        'follows_props[alice␀bob] @100 put bwd:close = true',
        'follows_out_recent[bob] @100 put (100,alice) = m1',
        'follows_in_recent[alice] @100 put (100,bob) = m1',
      ],
      marks('follows', 'bob', 'alice'),
    ],
    [
      'ADD_EDGE without properties writes no props row; the edge type picks the namespaces',
      event({ edge_type: 'likes' }),
      {},
      [
        'likes_out[alice] @100 put bob = ACTIVE@100 m1',
        'likes_in[bob] @100 put alice = ACTIVE@100 m1',
        'likes_out_recent[alice] @100 put (100,bob) = m1',
        'likes_in_recent[bob] @100 put (100,alice) = m1',
      ],
      marks('likes', 'alice', 'bob'),
    ],
    [
      'REMOVE_EDGE of an unknown link marks both sides REMOVED and keeps properties',
      event({ op: 'REMOVE_EDGE', mutation_id: 'm2' }),
      {},
      ['follows_out[alice] @100 put bob = REMOVED@100 m2', 'follows_in[bob] @100 put alice = REMOVED@100 m2'],
      marks('follows', 'alice', 'bob', 'm2'),
    ],
    [
      'REMOVE_EDGE after a known ADD deletes the superseded recent entries at their own write time',
      event({ op: 'REMOVE_EDGE', mutation_id: 'm2' }),
      { forward: { state: 'ACTIVE', time: 90n, mutationId: 'm0' } },
      [
        'follows_out[alice] @100 put bob = REMOVED@100 m2',
        'follows_in[bob] @100 put alice = REMOVED@100 m2',
        'follows_out_recent[alice] @90 del (90,bob)',
        'follows_in_recent[bob] @90 del (90,alice)',
      ],
      marks('follows', 'alice', 'bob', 'm2'),
    ],
    [
      'REMOVE_EDGE older than the known ADD leaves its recent entries alone',
      event({ op: 'REMOVE_EDGE', mutation_id: 'm2' }),
      { forward: { state: 'ACTIVE', time: 120n, mutationId: 'm0' } },
      ['follows_out[alice] @100 put bob = REMOVED@100 m2', 'follows_in[bob] @100 put alice = REMOVED@100 m2'],
      marks('follows', 'alice', 'bob', 'm2'),
    ],
    [
      'REMOVE_EDGE of a link already REMOVED deletes no recent entries',
      event({ op: 'REMOVE_EDGE', mutation_id: 'm2' }),
      { forward: { state: 'REMOVED', time: 90n, mutationId: 'm0' } },
      ['follows_out[alice] @100 put bob = REMOVED@100 m2', 'follows_in[bob] @100 put alice = REMOVED@100 m2'],
      marks('follows', 'alice', 'bob', 'm2'),
    ],
    [
      "an ADD older than the dst's node tombstone becomes a removal at the tombstone time, with the removal's id, deletes any entry of its own and clears the bag",
      event({ properties: { since: 1n } }),
      { tombstones: { bob: { time: 150n, mutationId: 'rm-bob' } } },
      [
        'follows_out[alice] @150 put bob = REMOVED@150 rm-bob',
        'follows_in[bob] @150 put alice = REMOVED@150 rm-bob',
        'follows_out_recent[alice] @100 del (100,bob)',
        'follows_in_recent[bob] @100 del (100,alice)',
        'follows_props[alice␀bob] @150 clear fwd',
      ],
      marks('follows', 'alice', 'bob'),
    ],
    [
      'an ADD at exactly the node tombstone time is removed (REMOVED wins ties)',
      event({}),
      { tombstones: { alice: { time: 100n, mutationId: 'rm-alice' } } },
      [
        'follows_out[alice] @100 put bob = REMOVED@100 rm-alice',
        'follows_in[bob] @100 put alice = REMOVED@100 rm-alice',
        'follows_out_recent[alice] @100 del (100,bob)',
        'follows_in_recent[bob] @100 del (100,alice)',
        'follows_props[alice␀bob] @100 clear fwd',
      ],
      marks('follows', 'alice', 'bob'),
    ],
    [
      'an ADD newer than a node tombstone stays an ADD and still clears the bag at the tombstone time',
      event({ properties: { since: 1n } }),
      { tombstones: { bob: { time: 50n, mutationId: 'rm-bob' } } },
      [
        'follows_out[alice] @100 put bob = ACTIVE@100 m1',
        'follows_in[bob] @100 put alice = ACTIVE@100 m1',
        'follows_props[alice␀bob] @100 put fwd:since = 1n',
        'follows_props[alice␀bob] @50 clear fwd',
        'follows_out_recent[alice] @100 put (100,bob) = m1',
        'follows_in_recent[bob] @100 put (100,alice) = m1',
      ],
      marks('follows', 'alice', 'bob'),
    ],
    [
      "a REMOVE_EDGE older than the src's node tombstone is rewritten to the tombstone time and deletes the superseded entries",
      event({ op: 'REMOVE_EDGE', mutation_id: 'm2' }),
      { tombstones: { alice: { time: 150n, mutationId: 'rm-alice' } }, forward: { state: 'ACTIVE', time: 120n, mutationId: 'm0' } },
      [
        'follows_out[alice] @150 put bob = REMOVED@150 rm-alice',
        'follows_in[bob] @150 put alice = REMOVED@150 rm-alice',
        'follows_out_recent[alice] @120 del (120,bob)',
        'follows_in_recent[bob] @120 del (120,alice)',
        'follows_props[alice␀bob] @150 clear fwd',
      ],
      marks('follows', 'alice', 'bob', 'm2'),
    ],
    [
      'a REMOVE_EDGE at the node tombstone time keeps whichever REMOVED value has the greater mutation id',
      event({ op: 'REMOVE_EDGE', mutation_id: 'z-remove' }),
      { tombstones: { bob: { time: 100n, mutationId: 'rm-bob' } } },
      [
        'follows_out[alice] @100 put bob = REMOVED@100 z-remove',
        'follows_in[bob] @100 put alice = REMOVED@100 z-remove',
        'follows_props[alice␀bob] @100 clear fwd',
      ],
      marks('follows', 'alice', 'bob', 'z-remove'),
    ],
    [
      'with both endpoints removed the newer removal wins the link, and both clear the bag',
      event({}),
      { tombstones: { alice: { time: 120n, mutationId: 'rm-alice' }, bob: { time: 150n, mutationId: 'rm-bob' } } },
      [
        'follows_out[alice] @150 put bob = REMOVED@150 rm-bob',
        'follows_in[bob] @150 put alice = REMOVED@150 rm-bob',
        'follows_out_recent[alice] @100 del (100,bob)',
        'follows_in_recent[bob] @100 del (100,alice)',
        'follows_props[alice␀bob] @120 clear fwd',
        'follows_props[alice␀bob] @150 clear fwd',
      ],
      marks('follows', 'alice', 'bob'),
    ],
    [
      'a re-ADD of an ACTIVE edge at a newer edge time deletes the older entry at its own write time',
      event({}),
      { forward: { state: 'ACTIVE', time: 90n, mutationId: 'm0' } },
      [
        'follows_out[alice] @100 put bob = ACTIVE@100 m1',
        'follows_in[bob] @100 put alice = ACTIVE@100 m1',
        'follows_out_recent[alice] @90 del (90,bob)',
        'follows_in_recent[bob] @90 del (90,alice)',
        'follows_out_recent[alice] @100 put (100,bob) = m1',
        'follows_in_recent[bob] @100 put (100,alice) = m1',
      ],
      marks('follows', 'alice', 'bob'),
    ],
    [
      'an ADD redelivered after it landed rewrites its entry and deletes nothing',
      event({}),
      { forward: { state: 'ACTIVE', time: 100n, mutationId: 'm1' } },
      [
        'follows_out[alice] @100 put bob = ACTIVE@100 m1',
        'follows_in[bob] @100 put alice = ACTIVE@100 m1',
        'follows_out_recent[alice] @100 put (100,bob) = m1',
        'follows_in_recent[bob] @100 put (100,alice) = m1',
      ],
      marks('follows', 'alice', 'bob'),
    ],
    [
      'an ADD older than the current link writes no entry, and deletes the one an earlier attempt of it may have left',
      event({ properties: { since: 1n } }),
      { forward: { state: 'REMOVED', time: 120n, mutationId: 'm9' } },
      [
        'follows_out[alice] @100 put bob = ACTIVE@100 m1',
        'follows_in[bob] @100 put alice = ACTIVE@100 m1',
        'follows_out_recent[alice] @100 del (100,bob)',
        'follows_in_recent[bob] @100 del (100,alice)',
        'follows_props[alice␀bob] @100 put fwd:since = 1n',
      ],
      marks('follows', 'alice', 'bob'),
    ],
    [
      'an ADD older than an ACTIVE link of its own edge time leaves that entry alone',
      event({ event_time: 80n, edge_time: 90n }),
      { forward: { state: 'ACTIVE', time: 90n, mutationId: 'm0' } },
      ['follows_out[alice] @80 put bob = ACTIVE@90 m1', 'follows_in[bob] @80 put alice = ACTIVE@90 m1'],
      marks('follows', 'alice', 'bob'),
    ],
    [
      'a self-loop is an ordinary edge with one bag, the forward one of v␀v',
      event({ src: 'v', dst: 'v', properties: { self: 'yes' } }),
      { tombstones: { v: { time: 10n, mutationId: 'rm-v' } } },
      [
        'follows_out[v] @100 put v = ACTIVE@100 m1',
        'follows_in[v] @100 put v = ACTIVE@100 m1',
        'follows_props[v␀v] @100 put fwd:self = "yes"',
        'follows_props[v␀v] @10 clear fwd',
        'follows_out_recent[v] @100 put (100,v) = m1',
        'follows_in_recent[v] @100 put (100,v) = m1',
      ],
      marks('follows', 'v', 'v'),
    ],
    [
      'SET_PROPERTIES writes one props row per property and nothing else',
      event({ op: 'SET_PROPERTIES', properties: { b: null, a: Buffer.from([0xca, 0xfe]) } }),
      { tombstones: { bob: { time: 150n, mutationId: 'rm-bob' } } },
      ['follows_props[alice␀bob] @100 put fwd:a = 0xcafe', 'follows_props[alice␀bob] @100 put fwd:b = null'],
      [],
    ],
    [
      'REMOVE_PROPERTIES writes a tombstone per named key (sorted, duplicates once)',
      event({ op: 'REMOVE_PROPERTIES', property_keys: ['since', 'close', 'since'] }),
      {},
      ['follows_props[alice␀bob] @100 del fwd:close', 'follows_props[alice␀bob] @100 del fwd:since'],
      [],
    ],
    [
      'REMOVE_PROPERTIES with no keys clears the bag',
      event({ op: 'REMOVE_PROPERTIES' }),
      {},
      ['follows_props[alice␀bob] @100 clear fwd'],
      [],
    ],
    [
      'a symmetric type writes and clears one bag for both directions',
      event({ op: 'SET_PROPERTIES', edge_type: 'friends', src: 'bob', dst: 'alice', properties: { since: 1n } }),
      {},
      ['friends_props[alice␀bob] @100 put sym:since = 1n'],
      [],
    ],
    [
      'a clear of a symmetric type clears the shared bag, from either side',
      event({ op: 'REMOVE_PROPERTIES', edge_type: 'friends', src: 'bob', dst: 'alice' }),
      {},
      ['friends_props[alice␀bob] @100 clear sym'],
      [],
    ],
    [
      'REMOVE_NODE writes the node tombstone at its event time with the processing wall clock',
      event({ op: 'REMOVE_NODE', edge_type: '', dst: '', mutation_id: 'rm-alice' }),
      {},
      ["node_tombstones[alice] @100 put '' = rm-alice written 777"],
      [],
    ],
  ])('%s', (_, e, existing, writes, followUps) => {
    const output = run(e, existing);
    // Links first here, then the rest in wave order: entries last (the waves themselves: "fan-out: write waves").
    const all = allWrites(output).filter((m) => !isIntent(m));
    const isLink = (m: Mutation) => /_(out|in)$/.test(m.namespace);
    expect(renderMutations([...all.filter(isLink), ...all.filter((m) => !isLink(m))])).toEqual(writes);
    expect(renderMutations(output.followUps)).toEqual(followUps);
    expect(output.emits).toEqual([]);
  });
});

describe('fan-out: exact index entries', () => {
  it('the sole writer of its src writes exact entries that carry the link value; a repair writes them unverified', () => {
    const e = event({ data: Buffer.from([7]) });
    const recent = (output: ProcessorOutput) => renderMutations(allWrites(output)).filter((line) => line.includes('_recent'));
    expect(recent(fanOut.process(e, readResultsFrom(fanOut.reads(e), () => undefined), { ...ctx, soleWriter: true }))).toEqual([
      'follows_out_recent[alice] @100 put (100,bob) = exact ACTIVE@100 m1',
      'follows_in_recent[bob] @100 put (100,alice) = exact ACTIVE@100 m1',
    ]);
    expect(recent(fanOut.process(e, readResultsFrom(fanOut.reads(e), () => undefined), { ...ctx, soleWriter: false }))).toEqual([
      'follows_out_recent[alice] @100 put (100,bob) = m1',
      'follows_in_recent[bob] @100 put (100,alice) = m1',
    ]);
  });
});

describe('fan-out: write waves', () => {
  const wavesOf = (e: EdgeMutation, existing: Existing, soleWriter = true) =>
    writeWaves(fanOut.process(e, readResultsFrom(fanOut.reads(e), lookupOf(e, existing)), { ...ctx, soleWriter })).map((w) => renderMutations(w.filter((m) => !isIntent(m))));
  const active90 = { forward: { state: 'ACTIVE', time: 90n, mutationId: 'm0' } } as const;

  it('a fresh ADD writes its links (and properties) first and its entries only after both links landed', () => {
    expect(wavesOf(event({ properties: { w: 1n } }), {})).toEqual([
      ['follows_out[alice] @100 put bob = ACTIVE@100 m1', 'follows_in[bob] @100 put alice = ACTIVE@100 m1', 'follows_props[alice␀bob] @100 put fwd:w = 1n'],
      ['follows_out_recent[alice] @100 put (100,bob) = exact ACTIVE@100 m1', 'follows_in_recent[bob] @100 put (100,alice) = exact ACTIVE@100 m1'],
    ]);
  });

  it('an ADD that supersedes an entry deletes it, then writes its links, then its entries', () => {
    expect(wavesOf(event({}), active90)).toEqual([
      ['follows_out_recent[alice] @90 del (90,bob)', 'follows_in_recent[bob] @90 del (90,alice)'],
      ['follows_out[alice] @100 put bob = ACTIVE@100 m1', 'follows_in[bob] @100 put alice = ACTIVE@100 m1'],
      ['follows_out_recent[alice] @100 put (100,bob) = exact ACTIVE@100 m1', 'follows_in_recent[bob] @100 put (100,alice) = exact ACTIVE@100 m1'],
    ]);
  });

  it('a repair writes unverified entries in the same place: after the links', () => {
    expect(wavesOf(event({}), {}, false)[1]).toEqual(['follows_out_recent[alice] @100 put (100,bob) = m1', 'follows_in_recent[bob] @100 put (100,alice) = m1']);
  });

  it('a REMOVE that supersedes an entry writes its links after the deletion; with nothing to supersede, one wave', () => {
    const removed = ['follows_out[alice] @100 put bob = REMOVED@100 m2', 'follows_in[bob] @100 put alice = REMOVED@100 m2'];
    expect(wavesOf(event({ op: 'REMOVE_EDGE', mutation_id: 'm2' }), active90)).toEqual([
      ['follows_out_recent[alice] @90 del (90,bob)', 'follows_in_recent[bob] @90 del (90,alice)'],
      removed,
    ]);
    expect(wavesOf(event({ op: 'REMOVE_EDGE', mutation_id: 'm2' }), { forward: { state: 'REMOVED', time: 90n, mutationId: 'm0' } })).toEqual([removed]);
  });

  it('a link replacing one of the same edge time at the same write time (a tie won on its bytes) writes its entry unverified first, then its links', () => {
    expect(wavesOf(event({ mutation_id: 'm1' }), { forward: { state: 'ACTIVE', time: 100n, mutationId: 'm0' } })).toEqual([
      ['follows_out_recent[alice] @100 put (100,bob) = m1', 'follows_in_recent[bob] @100 put (100,alice) = m1'],
      ['follows_out[alice] @100 put bob = ACTIVE@100 m1', 'follows_in[bob] @100 put alice = ACTIVE@100 m1'],
    ]);
  });

  it('a redelivery of the current link supersedes nothing: links, then entries', () => {
    expect(wavesOf(event({}), { forward: { state: 'ACTIVE', time: 100n, mutationId: 'm1' } })).toHaveLength(2);
  });

  it('an ADD that loses to a node removal deletes its own entry at its own write time, even when the link it replaces has the same edge time at an older write time', () => {
    // A re-add with edge_time 90 (event time 100) whose first attempt left its entry at write time 100, re-run after bob's removal at 150.
    const e = event({ edge_time: 90n });
    const existing: Existing = { forward: { state: 'ACTIVE', time: 90n, mutationId: 'm0' }, tombstones: { bob: { time: 150n, mutationId: 'rm' } } };
    expect(wavesOf(e, existing)[0]).toEqual(expect.arrayContaining(['follows_out_recent[alice] @100 del (90,bob)', 'follows_in_recent[bob] @100 del (90,alice)']));
  });
});

describe('fan-out: degree intents', () => {
  it.each<[string, Existing]>([
    ['a fresh ADD', {}],
    ['an ADD that supersedes an entry', { forward: { state: 'ACTIVE', time: 90n, mutationId: 'm0' } }],
  ])('%s writes an intent of each mark in its first wave, at the wall clock; its follow-ups delete exactly those', (_, existing) => {
    const e = event({});
    const output = fanOut.process(e, readResultsFrom(fanOut.reads(e), lookupOf(e, existing)), ctx);
    const intents = output.writes.filter(isIntent);
    expect(intents.map((m) => m.writeTime)).toEqual(intents.map(() => ctx.wallClockMicros));
    const keys = intents.flatMap((m) => m.additions.map((a) => a.key));
    expect(keys.map((k) => decodeDegreeDirtyKey(k))).toEqual(expect.arrayContaining([
      { edgeType: 'follows', direction: 'out', vertex: 'alice', writer: 'bob\u0000m1', intentStamp: 777n },
      { edgeType: 'follows', direction: 'in', vertex: 'bob', writer: 'alice\u0000m1', intentStamp: 777n },
    ]));
    expect(keys).toHaveLength(2);
    expect(intents.map((m) => m.id)).toEqual([degreeIntentShard('alice', 'bob', 'm1')]);
    expect(output.followUps.flatMap((f) => f.deletions)).toEqual(expect.arrayContaining(keys));
    expect((output.laterWaves ?? []).flat().some(isIntent)).toBe(false);
  });

  it('spreads the intents of a celebrity\'s follows over every shard: its own shard gets only their marks', () => {
    const shards = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const e = event({ src: `fan${i}`, dst: 'celebrity', mutation_id: `f${i}` });
      for (const m of fanOut.process(e, readResultsFrom(fanOut.reads(e), () => undefined), ctx).writes.filter(isIntent)) shards.add(m.id);
    }
    expect(shards.size).toBe(16);
  });
});

describe('fan-out reads', () => {
  const render = (e: EdgeMutation): string[] => fanOut.reads(e).map((r) => `${r.namespace}[${r.id}] ${Buffer.from(r.key).toString()}`);

  it.each<[string, EdgeMutation, string[]]>([
    ['ADD_EDGE reads both node tombstones and the current link from its forward cell', event({}), ['node_tombstones[alice] ', 'node_tombstones[bob] ', 'follows_out[alice] bob']],
    [
      'REMOVE_EDGE reads the same',
      event({ op: 'REMOVE_EDGE' }),
      ['node_tombstones[alice] ', 'node_tombstones[bob] ', 'follows_out[alice] bob'],
    ],
    ['a self-loop reads its one tombstone once', event({ src: 'v', dst: 'v' }), ['node_tombstones[v] ', 'follows_out[v] v']],
    ['SET_PROPERTIES reads nothing', event({ op: 'SET_PROPERTIES', properties: { a: 1n } }), []],
    ['REMOVE_PROPERTIES reads nothing', event({ op: 'REMOVE_PROPERTIES' }), []],
    ['REMOVE_NODE reads nothing', event({ op: 'REMOVE_NODE', edge_type: '', dst: '' }), []],
  ])('%s', (_, e, reads) => {
    expect(render(e)).toEqual(reads);
  });
});

describe('fan-out determinism and errors', () => {
  const cases: [string, EdgeMutation, Existing][] = [
    ['ADD_EDGE', event({ properties: { a: 1n, b: 'x', c: 2.5 } }), {}],
    ['REMOVE_EDGE', event({ op: 'REMOVE_EDGE' }), { forward: { state: 'ACTIVE', time: 90n, mutationId: 'm0' } }],
    ['a rewritten ADD', event({}), { tombstones: { bob: { time: 150n, mutationId: 'rm' } } }],
    ['REMOVE_NODE', event({ op: 'REMOVE_NODE', edge_type: '', dst: '' }), {}],
  ];

  it.each(cases)('processing the same %s twice gives byte-identical output', (_, e, existing) => {
    expect(run(e, existing)).toStrictEqual(run(e, existing));
  });

  it('property map order does not change the output', () => {
    expect(run(event({ properties: { a: 1n, b: 2n } }))).toStrictEqual(run(event({ properties: { b: 2n, a: 1n } })));
  });

  it('throws on an edge type the config does not declare (validation should have caught it)', () => {
    expect(() => run(event({ edge_type: 'blocks' }))).toThrow(/edge type 'blocks' is not configured/);
  });

  it('throws when it reads a cell it did not request', () => {
    const e = event({ op: 'REMOVE_EDGE' });
    expect(() => fanOut.process(e, readResultsFrom([], () => undefined), ctx)).toThrow(/unrequested/);
  });
});

describe('fan-out: degree marks of a sole writer', () => {
  /** The sides a link op marks (follow-ups) and announces (intents), as `direction:vertex`. */
  const marked = (e: EdgeMutation, existing: Existing, soleWriter: boolean) => {
    const output = fanOut.process(e, readResultsFrom(fanOut.reads(e), lookupOf(e, existing)), { ...ctx, soleWriter });
    const sides = (ms: readonly { readonly additions: readonly { readonly key: Uint8Array }[] }[]) =>
      ms.flatMap((m) => m.additions.map((a) => decodeDegreeDirtyKey(a.key))).map((k) => `${k.direction}:${k.vertex}`).sort();
    return { followUps: sides(output.followUps), intents: sides(output.writes.filter(isIntent)) };
  };
  const both = { followUps: ['in:bob', 'out:alice'], intents: ['in:bob', 'out:alice'] };
  const inOnly = { followUps: ['in:bob'], intents: ['in:bob'] };
  const active90 = { forward: { state: 'ACTIVE', time: 90n, mutationId: 'm0' } } as const;

  it.each<[string, EdgeMutation, Existing, typeof both]>([
    ['a new link changes the source\'s out-degree', event({}), {}, both],
    ['a re-add of an ACTIVE link (new edge time and data) cannot change it: the in side only', event({ data: Buffer.from([1]) }), active90, inOnly],
    ['hiding an ACTIVE link changes it', event({ op: 'HIDE_EDGE' }), active90, both],
    ['removing a link that does not exist cannot change it', event({ op: 'REMOVE_EDGE' }), {}, inOnly],
    ['an unhide of a HIDDEN link changes it', event({ op: 'UNHIDE_EDGE' }), { forward: { state: 'HIDDEN', time: 90n, mutationId: 'm0' } }, both],
    ['an ADD that loses to a newer REMOVED link cannot change it', event({ event_time: 80n }), { forward: { state: 'REMOVED', time: 90n, mutationId: 'm0' } }, inOnly],
    ['an ADD that loses to a node removal of an ACTIVE link changes it', event({}), { ...active90, tombstones: { bob: { time: 150n, mutationId: 'rm' } } }, both],
    // An earlier attempt of this op wrote the link; its marks (and maybe its intents) may never have landed.
    ['a re-run that finds its own earlier attempt\'s link marks both sides', event({}), { forward: { state: 'ACTIVE', time: 100n, mutationId: 'm1' } }, both],
  ])('%s', (_, e, existing, expected) => {
    expect(marked(e, existing, true)).toEqual(expected);
  });

  it('a writer that is not its src\'s sole writer (a repair, a forwarded record) marks both sides whatever it read', () => {
    expect(marked(event({ data: Buffer.from([1]) }), active90, false)).toEqual(both);
    expect(marked(event({ op: 'REMOVE_EDGE' }), {}, false)).toEqual(both);
  });
});
