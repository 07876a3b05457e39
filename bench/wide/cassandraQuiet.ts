import type cassandra from 'cassandra-driver';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { round } from '../ingest/stats.ts';

const POOLS = new Set(['CompactionExecutor', 'MemtableFlushWriter', 'MemtablePostFlush']);

export interface QuietWait {
  readonly seconds: number;
  /** False when the timeout ran out with flushes or compactions still running. */
  readonly quiet: boolean;
}

/**
 * Waits until Cassandra has had no flush or compaction task active or pending
 * (`system_views.thread_pools`) for `quietMs`, at most `maxMs`, so a
 * measurement phase does not start while the server is still digesting the
 * writes of the previous one (the load, or the split's copy).
 */
export async function waitForQuietCassandra(cql: cassandra.Client, o: { maxMs?: number; quietMs?: number; status: ReturnType<typeof createStatusLine>; label: string }): Promise<QuietWait> {
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
    if (quietSince !== undefined && now - quietSince >= quietMs) {
      o.status.done();
      return { seconds: round((now - t0) / 1000, 1), quiet: true };
    }
    if (now - t0 > maxMs) {
      o.status.done();
      return { seconds: round((now - t0) / 1000, 1), quiet: false };
    }
    if (busy.length > 0) o.status.update(`${o.label}: waiting for Cassandra flushes/compactions to finish (${busy.map((p) => `${p.name} ${p.n}`).join(', ')}), ${((now - t0) / 1000).toFixed(0)} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
