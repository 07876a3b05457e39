import type cassandra from 'cassandra-driver';

const POOLS = new Set(['CompactionExecutor', 'MemtableFlushWriter', 'MemtablePostFlush']);

export interface QuietWait {
  readonly seconds: number;
  /** False when the timeout ran out with flushes or compactions still running. */
  readonly quiet: boolean;
}

export interface QuietWaitOptions {
  /** Give up (quiet: false) after this long. Default 180 s. */
  readonly maxMs?: number;
  /** How long no pool may be busy. Default 3 s. */
  readonly quietMs?: number;
  /** Called on every poll while a pool is busy: "CompactionExecutor 2, MemtableFlushWriter 1". */
  readonly onBusy?: (busy: string, elapsedMs: number) => void;
}

/**
 * Waits until Cassandra has had no flush or compaction task active or pending
 * (`system_views.thread_pools`) for `quietMs`, at most `maxMs`, so a
 * measurement does not start while the server is still digesting earlier
 * writes (a load, or a split's copy). Used by bench:wide and the demo.
 */
export async function waitForQuietCassandra(cql: cassandra.Client, o: QuietWaitOptions = {}): Promise<QuietWait> {
  const maxMs = o.maxMs ?? 180_000;
  const quietMs = o.quietMs ?? 3_000;
  const t0 = performance.now();
  let quietSince: number | undefined;
  for (;;) {
    const rs = await cql.execute('SELECT name, active_tasks, pending_tasks FROM system_views.thread_pools');
    const busy = rs.rows
      .filter((r) => POOLS.has(String(r['name'])))
      .map((r) => ({ name: String(r['name']), n: Number(r['active_tasks'] ?? 0) + Number(r['pending_tasks'] ?? 0) }))
      .filter((p) => p.n > 0);
    const now = performance.now();
    if (busy.length === 0) quietSince ??= now;
    else quietSince = undefined;
    const seconds = Math.round((now - t0) / 100) / 10;
    if (quietSince !== undefined && now - quietSince >= quietMs) return { seconds, quiet: true };
    if (now - t0 > maxMs) return { seconds, quiet: false };
    if (busy.length > 0) o.onBusy?.(busy.map((p) => `${p.name} ${p.n}`).join(', '), now - t0);
    await new Promise((r) => setTimeout(r, 500));
  }
}
