import cassandra from 'cassandra-driver';
import { connectBenchClients } from '../shared/benchClients.ts';
import type { BenchStack } from '../shared/benchStack.ts';

/**
 * The bench keyspaces (`bench_*`) and topics (`bench.*`) a stack holds now. bench:cluster lists
 * them before the first child and after the last, so whatever a child left behind is named in
 * the result (it removes nothing itself: others may be running benches on the same stack).
 */
export async function benchResidue(stack: BenchStack): Promise<{ keyspaces: string[]; topics: string[] }> {
  const cql = new cassandra.Client(stack.cqlOptions());
  const { admin } = await connectBenchClients(stack.endpoints, 'edgestream-bench-cluster');
  try {
    await admin.connect();
    const rs = await cql.execute('SELECT keyspace_name FROM system_schema.keyspaces');
    const keyspaces = rs.rows.map((r) => String(r['keyspace_name'])).filter((k) => k.startsWith('bench_')).sort();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith('bench.')).sort();
    return { keyspaces, topics };
  } finally {
    await admin.disconnect().catch(() => undefined);
    await cql.shutdown().catch(() => undefined);
  }
}
