import type cassandra from 'cassandra-driver';
import { decodeLinkValue, encodeDegreesKey, LinkState, reverseLinkNamespace, DEGREES_NAMESPACE } from '../../sinks/namespaces/index.ts';
import { qualifiedTable } from '../../sinks/cassandra/schemaCql.ts';

export interface RawCountBaseline {
  /** The least work an exact count from scratch needs: one paged read of every link cell, prepared, fetchSize 5 000. */
  readonly fullReadSeconds: number;
  readonly fullReadRows: number;
  readonly activeLinks: number;
  /** The least work a count read needs (TAO's assoc_count): one prepared point read of the count cell, median of 50. */
  readonly countPointReadMs: number;
}

/** The exact count from scratch: every cell of one link partition read with the raw driver (prepared, fetchSize 5 000), its ACTIVE links counted. */
export async function countActiveLinks(cql: cassandra.Client, keyspace: string, namespace: string, vertex: string): Promise<{ rows: number; active: number }> {
  const links = `SELECT value FROM ${qualifiedTable(keyspace, namespace)} WHERE id = ?`;
  let rows = 0;
  let active = 0;
  let pageState: string | undefined;
  do {
    const rs = await cql.execute(links, [vertex], { prepare: true, fetchSize: 5_000, ...(pageState === undefined ? {} : { pageState }) });
    for (const row of rs.rows) {
      rows++;
      if (decodeLinkValue(row['value'] as Buffer).state === LinkState.ACTIVE) active++;
    }
    pageState = rs.pageState ?? undefined;
  } while (pageState !== undefined);
  return { rows, active };
}

/** The raw cassandra-driver's side of bench:counts, on the same partition, in the same run. */
export async function rawCountBaseline(cql: cassandra.Client, keyspace: string, edgeType: string, vertex: string): Promise<RawCountBaseline> {
  const t0 = performance.now();
  const { rows, active } = await countActiveLinks(cql, keyspace, reverseLinkNamespace(edgeType), vertex);
  const fullReadSeconds = (performance.now() - t0) / 1_000;
  const point = `SELECT value FROM ${qualifiedTable(keyspace, DEGREES_NAMESPACE)} WHERE id = ? AND key = ?`;
  const key = Buffer.from(encodeDegreesKey(edgeType, 'in'));
  const times: number[] = [];
  for (let i = 0; i < 55; i++) {
    const t = performance.now();
    await cql.execute(point, [vertex, key], { prepare: true });
    if (i >= 5) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { fullReadSeconds: Math.round(fullReadSeconds * 100) / 100, fullReadRows: rows, activeLinks: active, countPointReadMs: Math.round((times[25] as number) * 100) / 100 };
}
