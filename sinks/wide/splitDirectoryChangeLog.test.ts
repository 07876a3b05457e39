import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../memory/index.ts';
import type { WideRowRecord } from '../namespaces/index.ts';
import { createSplitDirectory } from './createSplitDirectory.ts';
import { createWideRowRepository, type WideRowEntry, type WideRowRepository } from './wideRowRepository.ts';

// Issue 16: a refresh used to re-read every id of wide_rows (26–34 s at a million records, longer than the
// staleness bound). Now it reads the change log since the last load; full reloads run in the background.

const NS = ['wide_rows', 'wide_row_checkpoints', 'wide_rows_log'].map((name) => ({ name, chunking: false }));
const REFRESH_MS = 1_000;
const MAX_STALE_MS = 3 * REFRESH_MS;
const LOOKBACK_MS = 2_000;
const record = (partitionId: string): WideRowRecord => ({
  namespace: 'links', partitionId, status: 'COMPLETED', generation: 1, attempts: 1, splitNamespace: 'links_split', strategy: 'hash',
  buckets: 4, boundaries: [], rows: 0, bytes: 0, checksum: '', updatedAt: 1,
});

function setup() {
  const store = createMemoryStore({ namespaces: NS });
  const clock = { now: 1_000_000, writerSkewMs: 0 };
  const writer = createWideRowRepository(store, { nowMs: () => clock.now + clock.writerSkewMs });
  const counts = { entries: 0, changes: 0 };
  const source = { failing: false };
  /** A full reload that has read its records and waits here until the test lets it finish (or fail). */
  let held: { readonly snapshotTaken: Promise<void>; readonly release: (ok: boolean) => void; readonly taken: () => void; readonly released: Promise<boolean> } | undefined;
  const hold = () => {
    let taken!: () => void;
    let release!: (ok: boolean) => void;
    const snapshotTaken = new Promise<void>((r) => (taken = r));
    const released = new Promise<boolean>((r) => (release = r));
    held = { snapshotTaken, release, taken, released };
    return held;
  };
  async function* entries(ns: string): AsyncIterable<WideRowEntry> {
    if (source.failing) throw new Error('wide_rows list timed out');
    const snapshot: WideRowEntry[] = [];
    for await (const e of writer.entries(ns)) snapshot.push(e);
    const h = held;
    if (h !== undefined) {
      h.taken();
      if (!(await h.released)) throw new Error('full reload failed late');
    }
    for (const e of snapshot) {
      counts.entries++;
      yield e;
    }
  }
  const repository: WideRowRepository = {
    ...writer,
    entries,
    async *changes(ns, fromMs, untilMs) {
      if (source.failing) throw new Error('wide_rows_log read timed out');
      for await (const id of writer.changes(ns, fromMs, untilMs)) {
        counts.changes++;
        yield id;
      }
    },
  };
  const directory = createSplitDirectory({
    repository, namespaces: ['links'], refreshMs: REFRESH_MS, maxStaleMs: MAX_STALE_MS, falsePositiveRate: 0.01, logLookbackMs: LOOKBACK_MS, nowMs: () => clock.now,
  });
  return { store, clock, writer, counts, source, directory, hold, unhold: () => (held = undefined) };
}

describe('split directory change log (incremental refresh)', () => {
  it('a refresh reads only what the log has since the last load, not every record', async () => {
    const s = setup();
    for (let i = 0; i < 5_000; i++) await s.writer.put(record(`celeb-${i}`));
    s.clock.now += 10 * LOOKBACK_MS; // old records: past the log window of the refreshes below
    await s.directory.rebuild();
    expect(s.counts.entries).toBe(5_000);
    s.clock.now += REFRESH_MS;
    for (let i = 0; i < 3; i++) await s.writer.put(record(`new-${i}`));
    s.counts.entries = 0;
    s.counts.changes = 0;
    await s.directory.refresh();
    expect(s.counts.entries).toBe(0); // before issue 16: 5 003
    expect(s.counts.changes).toBeLessThan(10);
    for (let i = 0; i < 3; i++) expect(s.directory.mightHaveRecord('links', `new-${i}`)).toBe(true);
    expect(s.directory.stats).toMatchObject({ records: 5_003, rebuilds: 1, refreshes: 2 });
  });

  it('stays fresh while a full reload takes longer than the staleness bound, and swaps it in with what the log added meanwhile', async () => {
    const s = setup();
    await s.writer.put(record('old'));
    await s.directory.rebuild();
    const h = s.hold();
    const rebuilding = s.directory.rebuild();
    await h.snapshotTaken;
    for (let t = 0; t < 10; t++) {
      s.clock.now += REFRESH_MS;
      await s.writer.put(record(`during-${t}`));
      s.clock.now += 1;
      await s.directory.refresh();
      expect(s.directory.isFresh()).toBe(true);
    }
    h.release(true);
    await rebuilding;
    expect(s.directory.stats.rebuilds).toBe(2);
    for (const id of ['old', ...Array.from({ length: 10 }, (_, t) => `during-${t}`)]) expect(s.directory.mightHaveRecord('links', id)).toBe(true);
  });

  it('forgets a cached record when the log says it was rewritten', async () => {
    const s = setup();
    await s.writer.put(record('celeb'));
    await s.directory.rebuild();
    expect((await s.directory.record('links', 'celeb'))?.status).toBe('COMPLETED');
    s.clock.now += 10;
    await s.writer.put({ ...record('celeb'), status: 'FAILED', version: 2 });
    await s.directory.refresh();
    expect((await s.directory.record('links', 'celeb'))?.status).toBe('FAILED');
  });

  it('holds every record written before its last successful load began, whatever the interleaving of writes, refreshes, full reloads and writer clock skew (property)', async () => {
    type Step =
      | { kind: 'advance'; ms: number }
      | { kind: 'write'; skewMs: number }
      | { kind: 'refresh'; ok: boolean }
      | { kind: 'startRebuild' }
      | { kind: 'finishRebuild'; ok: boolean };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 3 * REFRESH_MS }) }),
      fc.record({ kind: fc.constant('write' as const), skewMs: fc.integer({ min: -LOOKBACK_MS, max: LOOKBACK_MS }) }),
      fc.record({ kind: fc.constant('refresh' as const), ok: fc.boolean() }),
      fc.constant({ kind: 'startRebuild' as const }),
      fc.record({ kind: fc.constant('finishRebuild' as const), ok: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60, size: 'max' }), async (steps) => {
        const s = setup();
        await s.directory.rebuild();
        const written: { id: string; atMs: number }[] = [];
        let rebuilding: { readonly done: Promise<void>; readonly release: (ok: boolean) => void } | undefined;
        for (const st of steps) {
          s.clock.now += 1; // every step at its own millisecond: "before" is strict
          if (st.kind === 'advance') s.clock.now += st.ms;
          if (st.kind === 'write') {
            s.clock.writerSkewMs = st.skewMs;
            const id = `p-${written.length}`;
            await s.writer.put(record(id));
            written.push({ id, atMs: s.clock.now });
          }
          if (st.kind === 'refresh') {
            s.source.failing = !st.ok;
            await s.directory.refresh().catch(() => undefined);
            s.source.failing = false;
          }
          if (st.kind === 'startRebuild' && rebuilding === undefined) {
            const h = s.hold();
            rebuilding = { done: s.directory.rebuild().catch(() => undefined), release: h.release };
            await h.snapshotTaken; // it has read wide_rows: later writes reach it only through the log
            s.unhold();
          }
          if (st.kind === 'finishRebuild' && rebuilding !== undefined) {
            rebuilding.release(st.ok);
            await rebuilding.done;
            rebuilding = undefined;
          }
          const loadedAtMs = s.clock.now - s.directory.ageMs();
          for (const w of written) if (w.atMs < loadedAtMs) expect(s.directory.mightHaveRecord('links', w.id)).toBe(true);
        }
        if (rebuilding !== undefined) {
          rebuilding.release(true);
          await rebuilding.done;
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
