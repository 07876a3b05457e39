import type cassandra from 'cassandra-driver';

/** Local reads and writes (partition mutations) Cassandra applied per table of a keyspace, from system_views. */
export interface TableOps {
  readonly writes: Readonly<Record<string, number>>;
  readonly reads: Readonly<Record<string, number>>;
}

/**
 * Summed over every node the client knows: the views are node-local, so on a cluster each
 * node is asked (a replicated write counts once per replica that applied it).
 */
export async function tableOps(cql: cassandra.Client, keyspace: string): Promise<TableOps> {
  const read = async (view: string, host: cassandra.Host): Promise<Record<string, number>> => {
    try {
      const rs = await cql.execute(`SELECT table_name, count FROM system_views.${view} WHERE keyspace_name = ?`, [keyspace], { host });
      return Object.fromEntries(rs.rows.map((r) => [String(r['table_name']), Number(r['count'])]).filter(([, n]) => (n as number) > 0));
    } catch {
      return {}; // virtual tables are Cassandra 4.0+
    }
  };
  const sum = async (view: string): Promise<Record<string, number>> => {
    const total: Record<string, number> = {};
    for (const host of cql.hosts.values()) for (const [t, n] of Object.entries(await read(view, host))) total[t] = (total[t] ?? 0) + n;
    return total;
  };
  return { writes: await sum('local_write_latency'), reads: await sum('local_read_latency') };
}

/** `b - a` per table. */
export function opsDelta(a: TableOps, b: TableOps): TableOps {
  const sub = (x: Readonly<Record<string, number>>, y: Readonly<Record<string, number>>) =>
    Object.fromEntries(Object.entries(y).map(([k, v]) => [k, v - (x[k] ?? 0)]).filter(([, v]) => (v as number) > 0));
  return { writes: sub(a.writes, b.writes), reads: sub(a.reads, b.reads) };
}

/** Ops per event, rounded. */
export function perEvent(ops: TableOps, events: number): { writes: Record<string, number>; reads: Record<string, number>; totalWrites: number; totalReads: number } {
  const per = (x: Readonly<Record<string, number>>) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, Math.round((v / events) * 1000) / 1000]));
  const sum = (x: Readonly<Record<string, number>>) => Math.round((Object.values(x).reduce((s, v) => s + v, 0) / events) * 1000) / 1000;
  return { writes: per(ops.writes), reads: per(ops.reads), totalWrites: sum(ops.writes), totalReads: sum(ops.reads) };
}
