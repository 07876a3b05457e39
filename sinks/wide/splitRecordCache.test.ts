import { describe, expect, it } from 'vitest';
import type { WideRowRecord } from '../namespaces/index.ts';
import { createSplitRecordCache } from './splitRecordCache.ts';

const record = (generation: number) => ({ namespace: 'follows_in', partitionId: 'celebrity', generation }) as unknown as WideRowRecord;

/** A record read that resolves only when the test says so. */
function pendingReads() {
  const reads: { resolve: (r: WideRowRecord | undefined) => void; reject: (e: Error) => void }[] = [];
  const read = () => new Promise<WideRowRecord | undefined>((resolve, reject) => void reads.push({ resolve, reject }));
  return { read, reads };
}

const tick = () => new Promise((r) => setImmediate(r));

/** A cache with a 1 000 ms ttl on a clock the test sets, holding record 1 read at t = 0. */
async function cachedAtZero() {
  const clock = { t: 0 };
  const { read, reads } = pendingReads();
  const cache = createSplitRecordCache(read, 1_000, () => clock.t);
  const first = cache.get('follows_in', 'celebrity');
  reads[0]!.resolve(record(1));
  expect(await first).toEqual(record(1));
  return { clock, reads, cache };
}

describe('createSplitRecordCache', () => {
  it('serves a hot record from the cache forever: in the second half of its life it is read again in the background', async () => {
    const { clock, reads, cache } = await cachedAtZero();
    clock.t = 400;
    expect(await cache.get('follows_in', 'celebrity')).toEqual(record(1)); // first half: no read
    expect(reads).toHaveLength(1);
    clock.t = 600;
    expect(await cache.get('follows_in', 'celebrity')).toEqual(record(1)); // served at once, read again behind it
    expect(reads).toHaveLength(2);
    await cache.get('follows_in', 'celebrity');
    expect(reads).toHaveLength(2); // one refresh in flight at a time
    reads[1]!.resolve(record(2));
    await tick();
    clock.t = 1_500; // past the first record's expiry: the refreshed one (read at 600) answers, though a read is pending
    expect(await cache.get('follows_in', 'celebrity')).toEqual(record(2));
    expect(reads).toHaveLength(3); // in its own second half: read again behind it
  });

  it('never serves a record past its ttl: a failed refresh leaves the entry to expire, and a forget during a refresh wins', async () => {
    const { clock, reads, cache } = await cachedAtZero();
    clock.t = 700;
    await cache.get('follows_in', 'celebrity');
    reads[1]!.reject(new Error('cassandra down'));
    await tick();
    clock.t = 1_100; // expired: this read waits for the store
    const late = cache.get('follows_in', 'celebrity');
    expect(reads).toHaveLength(3);
    reads[2]!.resolve(record(3));
    expect(await late).toEqual(record(3));
    clock.t = 1_700;
    await cache.get('follows_in', 'celebrity'); // refresh ahead…
    cache.forget('follows_in', 'celebrity'); // …but the change log says the record changed
    reads[3]!.resolve(record(3));
    await tick();
    const after = cache.get('follows_in', 'celebrity');
    expect(reads).toHaveLength(5); // the refreshed (possibly old) record was not kept: read again
    reads[4]!.resolve(record(4));
    expect(await after).toEqual(record(4));
  });
});
