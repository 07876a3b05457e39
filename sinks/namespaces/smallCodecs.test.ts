import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namespacesSchema } from '../store/storeConfig.ts';
import { decodeDegreeCount, decodeDegreesKey, encodeDegreeCount, encodeDegreesKey } from './degreeCount.ts';
import { decodeDegreeDirtyKey, degreeDirtyShard, degreeDirtyShards, encodeDegreeDirtyKey } from './degreeDirtyMark.ts';
import { edgePropsId } from './edgePropsId.ts';
import { edgestreamNamespaces } from './edgestreamNamespaces.ts';
import {
  edgePropsNamespace,
  forwardLinkNamespace,
  forwardRecentNamespace,
  reverseLinkNamespace,
  reverseRecentNamespace,
} from './edgeTypeNamespaces.ts';
import { fnv1a32 } from './fnv1a32.ts';
import { decodeVertexKey, encodeVertexKey } from './vertexKey.ts';

const vertex = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => !s.includes('\u0000'));

describe('edge type namespaces', () => {
  it('names each namespace after the edge type', () => {
    expect(forwardLinkNamespace('follows')).toBe('follows_out');
    expect(reverseLinkNamespace('follows')).toBe('follows_in');
    expect(forwardRecentNamespace('follows')).toBe('follows_out_recent');
    expect(reverseRecentNamespace('follows')).toBe('follows_in_recent');
    expect(edgePropsNamespace('follows')).toBe('follows_props');
  });

  it('lists every namespace a config needs, chunking only property bags, valid for the store config', () => {
    const list = edgestreamNamespaces({ edgeTypes: [{ name: 'follows' }, { name: 'a_out' }, { name: 'a' }] });
    expect(list.filter((n) => n.chunking).map((n) => n.name)).toEqual(['follows_props', 'a_out_props', 'a_props']);
    expect(list.filter((n) => n.resurrectionSafe).map((n) => n.name)).toEqual(['degree_dirty', 'wide_rows_log']);
    expect(list.map((n) => n.name).slice(-7)).toEqual(['node_tombstones', 'degree_dirty', 'degrees', 'degree_mirror', 'wide_rows', 'wide_row_checkpoints', 'wide_rows_log']);
    expect(list.map((n) => n.name).filter((n) => n.endsWith('_split'))).toEqual(
      ['follows', 'a_out', 'a'].flatMap((t) => [`${t}_out_split`, `${t}_in_split`, `${t}_out_recent_split`, `${t}_in_recent_split`]),
    );
    expect(list).toHaveLength(3 * (5 + 4) + 7);
    expect(new Set(list.map((n) => n.name)).size).toBe(list.length);
    expect(namespacesSchema.safeParse(list).success).toBe(true);
  });

  it('chunks property bags only when the configured bag limit exceeds the inline size', () => {
    const chunked = (maxPropertyBagBytes: number) =>
      edgestreamNamespaces({ edgeTypes: [{ name: 'follows' }], limits: { maxPropertyBagBytes } }).filter((n) => n.chunking).map((n) => n.name);
    expect(chunked(64 * 1024)).toEqual([]);
    expect(chunked(256 * 1024)).toEqual([]);
    expect(chunked(256 * 1024 + 1)).toEqual(['follows_props']);
  });

  it('stays valid for the longest edge type the config allows', () => {
    expect(namespacesSchema.safeParse(edgestreamNamespaces({ edgeTypes: [{ name: 'a'.repeat(30) }] })).success).toBe(true);
  });
});

describe('vertexKey', () => {
  it('is the UTF-8 bytes and round-trips', () => {
    expect([...encodeVertexKey('é')]).toEqual([0xc3, 0xa9]);
    fc.assert(
      fc.property(vertex, (v) => {
        expect(decodeVertexKey(encodeVertexKey(v))).toBe(v);
      }),
    );
    expect(() => decodeVertexKey(Uint8Array.of(0xff))).toThrow(/vertexKey: bytes are not valid UTF-8/);
  });
});

describe('edgePropsId', () => {
  it('is direction-agnostic: min ␀ max by UTF-8 bytes', () => {
    expect(edgePropsId('bob', 'alice')).toBe('alice\u0000bob');
    expect(edgePropsId('alice', 'bob')).toBe('alice\u0000bob');
    expect(edgePropsId('v', 'v')).toBe('v\u0000v');
    // UTF-16 order would put U+FF61 after U+1F600's high surrogate; UTF-8 byte order does not.
    expect(edgePropsId('\u{1f600}', '\uff61')).toBe('\uff61\u0000\u{1f600}');
    fc.assert(
      fc.property(vertex, vertex, (a, b) => {
        expect(edgePropsId(a, b)).toBe(edgePropsId(b, a));
      }),
    );
  });
});

describe('fnv1a32', () => {
  it('matches the reference vectors', () => {
    expect(fnv1a32(new Uint8Array(0))).toBe(0x811c9dc5);
    expect(fnv1a32(Buffer.from('a'))).toBe(0xe40c292c);
    expect(fnv1a32(Buffer.from('foobar'))).toBe(0xbf9cf968);
  });
});

describe('degree_dirty marks', () => {
  it('shards by fnv1a32(vertex) mod 16', () => {
    expect(degreeDirtyShard('a')).toBe(`shard-${0xe40c292c % 16}`);
    expect(degreeDirtyShards()).toHaveLength(16);
    fc.assert(
      fc.property(vertex, (v) => {
        expect(degreeDirtyShards()).toContain(degreeDirtyShard(v));
      }),
    );
  });

  it('keys round-trip, vertices containing separators-like text included', () => {
    expect(Buffer.from(encodeDegreeDirtyKey({ edgeType: 'follows', direction: 'in', vertex: 'bob' })).toString()).toBe('follows\u0000in\u0000bob');
    fc.assert(
      fc.property(fc.constantFrom('out' as const, 'in' as const), vertex, (direction, v) => {
        const mark = { edgeType: 'follows', direction, vertex: v };
        expect(decodeDegreeDirtyKey(encodeDegreeDirtyKey(mark))).toEqual(mark);
      }),
    );
  });

  it('keys with the writer that made the mark round-trip, and sort after the vertex', () => {
    expect(Buffer.from(encodeDegreeDirtyKey({ edgeType: 'follows', direction: 'in', vertex: 'bob', writer: 'al\u0000m1' })).toString()).toBe('follows\u0000in\u0000bob\u0000al\u0000m1');
    fc.assert(
      fc.property(fc.constantFrom('out' as const, 'in' as const), vertex, fc.string({ maxLength: 20 }), (direction, v, writer) => {
        const mark = { edgeType: 'follows', direction, vertex: v, writer };
        expect(decodeDegreeDirtyKey(encodeDegreeDirtyKey(mark))).toEqual(mark);
      }),
    );
  });

  it('intents round-trip, sort right after the mark of the same write, and read as that peer\'s mark to a decoder that splits the writer', () => {
    const mark = { edgeType: 'follows', direction: 'in' as const, vertex: 'bob', writer: 'al\u0000m1' };
    const intent = encodeDegreeDirtyKey({ ...mark, intentStamp: 1_700_000_000_000_000n });
    expect(Buffer.from(intent).toString()).toBe('follows\u0000in\u0000bob\u0000al\u0000m1\u0000\u00001700000000000000');
    expect(decodeDegreeDirtyKey(intent)).toEqual({ ...mark, intentStamp: 1_700_000_000_000_000n });
    expect(Buffer.compare(Buffer.from(encodeDegreeDirtyKey(mark)), Buffer.from(intent))).toBe(-1);
    expect(decodeDegreeDirtyKey(intent).writer?.split('\u0000')[0]).toBe('al');
    fc.assert(
      fc.property(vertex, fc.string({ minLength: 1, maxLength: 20 }), fc.bigInt({ min: 0n, max: 2n ** 63n }), (v, id, stamp) => {
        const m = { edgeType: 'follows', direction: 'out' as const, vertex: v, writer: `peer\u0000${id}`, intentStamp: stamp };
        expect(decodeDegreeDirtyKey(encodeDegreeDirtyKey(m))).toEqual(m);
      }),
    );
  });

  it.each([
    ['a writer with two U+0000 in a row', { writer: 'al\u0000\u0000m1' }, /two U\+0000 in a row/],
    ['an intent whose writer ends with U+0000', { writer: 'al\u0000', intentStamp: 1n }, /two U\+0000 in a row/],
    ['an intent without a writer', { intentStamp: 1n }, /an intent needs a writer/],
    ['an intent with a negative stamp', { writer: 'al', intentStamp: -1n }, /an intent needs a writer and a stamp >= 0/],
  ])('refuses to encode %s', (_, extra, error) => {
    expect(() => encodeDegreeDirtyKey({ edgeType: 'follows', direction: 'in', vertex: 'bob', ...extra })).toThrow(error);
  });

  it.each([['follows'], ['follows\u0000sideways\u0000bob'], ['\u0000out\u0000bob'], ['follows\u0000out\u0000'], ['follows\u0000out\u0000bob\u0000al\u0000m1\u0000\u0000soon']])('rejects the key %j', (text) => {
    expect(() => decodeDegreeDirtyKey(Buffer.from(text))).toThrow(/degreeDirtyKey/);
  });
});

describe('degrees', () => {
  it('keys are type ␀ direction and round-trip', () => {
    expect(Buffer.from(encodeDegreesKey('likes', 'out')).toString()).toBe('likes\u0000out');
    expect(decodeDegreesKey(encodeDegreesKey('likes', 'in'))).toEqual({ edgeType: 'likes', direction: 'in' });
    expect(() => decodeDegreesKey(Buffer.from('likes'))).toThrow(/degreesKey/);
  });

  it('counts are u64 BE and round-trip', () => {
    expect([...encodeDegreeCount(258n)]).toEqual([0, 0, 0, 0, 0, 0, 1, 2]);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (n) => {
        expect(decodeDegreeCount(encodeDegreeCount(n))).toBe(n);
      }),
    );
    expect(() => decodeDegreeCount(Uint8Array.of(1))).toThrow(/exactly 8 bytes/);
    expect(() => encodeDegreeCount(-1n)).toThrow(/unsigned 64-bit/);
  });
});
