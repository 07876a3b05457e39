import type cassandra from 'cassandra-driver';
import type { ConfigDrift } from '../../schemas/config/configDrift.ts';
import type { Replication } from '../../schemas/config/cassandraConfig.ts';
import { alterKeyspaceCql } from './schemaCql.ts';

/** A keyspace's replication as `system_schema.keyspaces` stores it: class and per-DC (or `replication_factor`) counts, as text. */
export type StoredReplication = Readonly<Record<string, string>>;

/** Reads a keyspace's replication; undefined when there is no such keyspace. */
export async function readKeyspaceReplication(client: cassandra.Client, keyspace: string): Promise<StoredReplication | undefined> {
  const rs = await client.execute('SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?', [keyspace], { prepare: true });
  return rs.first()?.get('replication') as StoredReplication | undefined;
}

/** Replicas per data centre (SimpleStrategy: one pseudo-DC, `replication_factor`). */
function perDataCenter(r: Replication): Record<string, number> {
  return r.class === 'SimpleStrategy' ? { replication_factor: r.replicationFactor } : { ...r.dataCenters };
}

/**
 * How an existing keyspace's replication differs from the configured one: the class, then the
 * replicas per data centre. All of it `init --apply` can alter; the data then has to be moved
 * by the operator (repair onto new replicas, cleanup off dropped ones).
 */
export function keyspaceDrift(keyspace: string, wanted: Replication, stored: StoredReplication): ConfigDrift[] {
  const subject = `keyspace ${keyspace}`;
  const storedClass = (stored['class'] ?? '').replace(/^org\.apache\.cassandra\.locator\./, '');
  const repair = `nodetool repair -full ${keyspace} on every node (new replicas start empty: until it finishes a quorum read may miss rows)`;
  const cleanup = `nodetool cleanup ${keyspace} on every node (frees what dropped replicas still hold)`;
  const moves = { after: `${repair}, then ${cleanup}` };
  if (storedClass !== wanted.class) {
    return [{ subject, difference: `replication class ${storedClass}, config cassandra.replication ${wanted.class}`, fix: 'apply', ...moves }];
  }
  const want = perDataCenter(wanted);
  const found: Record<string, number> = {};
  for (const [k, v] of Object.entries(stored)) if (k !== 'class') found[k] = Number(v);
  const drift: ConfigDrift[] = [];
  for (const dc of [...new Set([...Object.keys(want), ...Object.keys(found)])].sort()) {
    if ((found[dc] ?? 0) === (want[dc] ?? 0)) continue;
    const where = wanted.class === 'SimpleStrategy' ? 'replication factor' : `replication factor in ${dc}`;
    const configName = wanted.class === 'SimpleStrategy' ? 'cassandra.replicationFactor' : `cassandra.replication.dataCenters.${dc}`;
    const grows = (found[dc] ?? 0) < (want[dc] ?? 0);
    drift.push({ subject, difference: `${where} ${found[dc] ?? 0}, config ${configName} ${want[dc] ?? 0}`, fix: 'apply', after: grows ? repair : cleanup });
  }
  return drift;
}

/** `init --apply`: gives the keyspace the configured replication (DDL; the identifier is validated). */
export async function alterKeyspaceReplication(client: cassandra.Client, keyspace: string, replication: Replication): Promise<void> {
  await client.execute(alterKeyspaceCql(keyspace, replication));
}
