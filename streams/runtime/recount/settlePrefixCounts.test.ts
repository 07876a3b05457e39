import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { decorateStore } from '../../../sinks/store/index.ts';
import { settlePrefixCounts } from './settlePrefixCounts.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return new Uint8Array(b);
};

function setup() {
  const store = createMemoryStore({ namespaces: [{ name: 'src', chunking: false }, { name: 'cnt', chunking: false }] });
  return { store };
}

describe('settlePrefixCounts', () => {
  it('counts each prefix like a scan of it would, whether it scans prefixes one by one or reads runs of them as ranges (property)', async () => {
    // Two-letter prefixes `p<a-z>`; cells under them, between them and outside them.
    const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ key: fc.tuple(fc.constantFrom('p', 'o', 'q'), letter, fc.string({ maxLength: 3 })), counts: fc.boolean() }), { maxLength: 80 }),
        fc.uniqueArray(letter, { minLength: 1, maxLength: 26 }),
        fc.integer({ min: 1, max: 7 }),
        async (cells, letters, pageSize) => {
          const { store } = setup();
          for (const c of cells) await store.namespace('src').put('v', utf8(c.key.join('')), Uint8Array.of(c.counts ? 1 : 0), 1n);
          const live = (await store.namespace('src').slice('v', { limit: 1_000 })).cells;
          await settlePrefixCounts(store, {
            source: { namespace: 'src', id: 'v' },
            result: { namespace: 'cnt', id: 'v' },
            counts: letters.map((l) => ({ prefix: utf8(`p${l}`), key: utf8(`n${l}`) })),
            weigh: (cell) => BigInt(cell.value[0] as number),
            encode: u64,
          }, pageSize, 10n);
          for (const l of letters) {
            const truth = live.filter((c) => Buffer.from(c.key).toString().startsWith(`p${l}`) && c.value[0] === 1).length;
            const cell = await store.namespace('cnt').get('v', utf8(`n${l}`));
            expect(cell && Buffer.from(cell.value).readBigUInt64BE(), `p${l}`).toBe(BigInt(truth));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('writes each count after the one it replaces and settles a race: a stale count landing between the write and the read-back is rewritten', async () => {
    const { store } = setup();
    await store.namespace('src').put('v', utf8('pa1'), Uint8Array.of(1), 1n);
    await store.namespace('cnt').put('v', utf8('na'), u64(7n), 50n); // a count from a clock ahead of t0
    let raced = false;
    const racing = decorateStore(store, {
      async mutateMany(ms) {
        await store.mutateMany(ms);
        if (!raced) {
          raced = true;
          await store.namespace('cnt').put('v', utf8('na'), u64(9n), 52n); // another instance's stale count, newer stamp
        }
      },
    });
    await settlePrefixCounts(racing, { source: { namespace: 'src', id: 'v' }, result: { namespace: 'cnt', id: 'v' }, counts: [{ prefix: utf8('pa'), key: utf8('na') }], weigh: () => 1n, encode: u64 }, 100, 10n);
    const cell = await store.namespace('cnt').get('v', utf8('na'));
    expect(cell && { n: Buffer.from(cell.value).readBigUInt64BE(), at: cell.writeTime }).toEqual({ n: 1n, at: 53n });
  });

  it('leaves a count that already holds its fold alone (no write, no read-back) and settles the others', async () => {
    const { store } = setup();
    await store.namespace('src').put('v', utf8('pa1'), Uint8Array.of(1), 1n);
    await store.namespace('src').put('v', utf8('pb1'), Uint8Array.of(1), 1n);
    await store.namespace('cnt').put('v', utf8('na'), u64(1n), 5n); // right already
    await store.namespace('cnt').put('v', utf8('nb'), u64(4n), 5n); // stale
    const written: string[] = [];
    const watched = decorateStore(store, {
      async mutateMany(ms) {
        for (const m of ms) for (const a of m.additions) written.push(Buffer.from(a.key).toString());
        await store.mutateMany(ms);
      },
    });
    const counts = [{ prefix: utf8('pa'), key: utf8('na') }, { prefix: utf8('pb'), key: utf8('nb') }];
    await settlePrefixCounts(watched, { source: { namespace: 'src', id: 'v' }, result: { namespace: 'cnt', id: 'v' }, counts, weigh: () => 1n, encode: u64 }, 100, 10n);
    expect(written).toEqual(['nb']);
    const cells = await store.namespace('cnt').getKeys('v', [utf8('na'), utf8('nb')]);
    expect(cells.map((c) => c && { n: Buffer.from(c.value).readBigUInt64BE(), at: c.writeTime })).toEqual([{ n: 1n, at: 5n }, { n: 1n, at: 10n }]);
  });
});
