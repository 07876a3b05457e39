import type { StackEndpoints } from '../../stack/endpoints.ts';
import { namespaceStatements } from '../../sinks/cassandra/namespaceStatements.ts';
import { runRawIngest, type RawIngestRun } from '../shared/rawIngest.ts';
import type { BenchDurability } from '../shared/benchDurability.ts';
import { RAW_OPTIONS, withRawKeyspace } from '../shared/rawKeyspace.ts';
import { watchCpu, type CpuReport, type ProcessPids } from './procStats.ts';
import type { createStatusLine } from './progressLine.ts';
import type { Row } from './workload.ts';

export interface CeilingRun {
  readonly concurrency: number;
  readonly rows: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  /** CPU over the timed window only (not the DDL). */
  readonly cpu: CpuReport;
}

/**
 * The unbatched ceiling: the same rows written straight to the same Cassandra with
 * cassandra-driver, one prepared `INSERT ... USING TIMESTAMP ?` per row (the
 * store's own statement text), into tables created with the store's own DDL in
 * a fresh keyspace at the pipeline's replication, with `concurrency` requests in flight, at the store's
 * consistency (LOCAL_QUORUM) and client options. No batching, no reads, no
 * Kafka: what one Node.js client can push into this Cassandra.
 */
export async function runCeiling(o: {
  endpoints: StackEndpoints;
  /** The keyspace's replication is the pipeline's (its levels: RAW_OPTIONS). */
  durability: BenchDurability;
  keyspace: string;
  tables: readonly string[];
  rows: () => Iterator<Row>;
  rowCount: number;
  concurrency: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
  cpuPids: ProcessPids;
}): Promise<CeilingRun> {
  return withRawKeyspace(o.endpoints, o.keyspace, o.tables, async (client) => {
    const insertOf = new Map(o.tables.map((t) => [t, namespaceStatements(o.keyspace, t).insert]));
    const options = RAW_OPTIONS;
    const EMPTY = Buffer.alloc(0);
    // Prepare every statement before the clock starts.
    for (const q of insertOf.values()) await client.execute(q, ['bench-warmup', EMPTY, EMPTY, EMPTY, 1n], options);

    const it = o.rows();
    let written = 0;
    let failure: unknown;
    const cpu = watchCpu(o.cpuPids);
    const t0 = performance.now();
    const ticker = setInterval(() => {
      const secs = (performance.now() - t0) / 1000;
      o.status.update(`${o.label}: ${written}/${o.rowCount} rows, ${Math.round(written / secs)} rows/s`);
    }, 250);
    const worker = async (): Promise<void> => {
      for (;;) {
        if (failure !== undefined) return;
        const next = it.next();
        if (next.done) return;
        const r = next.value;
        try {
          await client.execute(insertOf.get(r.table) as string, [r.id, r.key, r.value, EMPTY, r.writeTime], options);
          written++;
        } catch (e) {
          failure ??= e;
        }
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    clearInterval(ticker);
    const seconds = (performance.now() - t0) / 1000;
    const cpuReport = cpu.stop();
    if (failure !== undefined) throw failure;
    return { concurrency: o.concurrency, rows: written, seconds: Math.round(seconds * 100) / 100, rowsPerSecond: Math.round(written / seconds), cpu: cpuReport };
  }, o.durability);
}

export type BatchedCeilingRun = RawIngestRun & {
  /** CPU over the timed window only (not the DDL). */
  readonly cpu: CpuReport;
};

/**
 * The batched ceiling: the least work the same answer needs, with the raw driver, in the
 * pipeline's chunks and batches and with the exact index's current-link read
 * (bench/shared/rawIngest), into a fresh keyspace made with the store's DDL.
 */
export async function runBatchedCeiling(o: Omit<Parameters<typeof runRawIngest>[0], 'client'> & { endpoints: StackEndpoints; durability: BenchDurability; cpuPids: ProcessPids }): Promise<BatchedCeilingRun> {
  return withRawKeyspace(o.endpoints, o.keyspace, o.tables, async (client) => {
    let cpu: ReturnType<typeof watchCpu> | undefined;
    const run = await runRawIngest({ ...o, client, onStart: () => (cpu = watchCpu(o.cpuPids)) });
    return { ...run, cpu: (cpu as ReturnType<typeof watchCpu>).stop() };
  }, o.durability);
}
