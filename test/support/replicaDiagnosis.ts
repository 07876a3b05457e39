import cassandra from 'cassandra-driver';

/** The partitions a `newest <type> <out|in> <vertex>: …` line of graphLines reads: the `<type>_<dir>_recent` index and the vertex's link partition. */
export function partitionsOfNewestLine(line: string): { table: string; id: string; links: string } | undefined {
  const m = /^newest (\S+) (out|in) (\S+): /.exec(line);
  return m ? { table: `${m[1]}_${m[2]}_recent`, id: m[3] as string, links: `${m[1]}_${m[2]}` } : undefined;
}

/**
 * What each replica holds of one partition, read at ONE from that node alone:
 * every live row's key, first value byte (0x00 an exact entry) and write time.
 * A row a quorum read returns beside a link that supersedes it shows here on
 * the replicas that never got its deletion: one of them (a lost write) or all
 * (no deletion was ever sent).
 */
export async function describeReplicas(cql: cassandra.Client, keyspace: string, table: string, id: string): Promise<string[]> {
  const out: string[] = [];
  for (const host of cql.hosts.values()) {
    try {
      const rs = await cql.execute(`SELECT key, value, writetime(value) AS wt FROM ${keyspace}.${table} WHERE id = ?`, [id], {
        host,
        prepare: true,
        consistency: cassandra.types.consistencies.one,
        fetchSize: 5_000,
      });
      const rows = rs.rows.map((r) => `${(r['key'] as Buffer).toString('hex')}:${(r['value'] as Buffer)[0] ?? '-'}@${String(r['wt'])}`);
      out.push(`${host.address} ${table}[${id}] ${rows.length} rows: ${rows.join(' ')}`);
    } catch (e) {
      out.push(`${host.address} ${table}[${id}]: ${(e as Error).message}`);
    }
  }
  return out;
}
