import type { Admin } from 'kafkajs';
import cassandra from 'cassandra-driver';
import type { StackEndpoints } from '../../stack/endpoints.ts';

// What a benchmark run leaves behind and removes at the end: its keyspace, registry subjects and consumer groups.

export async function dropKeyspace(endpoints: StackEndpoints, keyspace: string): Promise<void> {
  const client = new cassandra.Client({ contactPoints: [...endpoints.cassandraContactPoints], localDataCenter: endpoints.cassandraLocalDc, socketOptions: { readTimeout: 120_000 } });
  try {
    await client.execute(`DROP KEYSPACE IF EXISTS "${keyspace}"`);
  } finally {
    await client.shutdown();
  }
}

/** Soft delete, then permanent delete (Confluent API; Apicurio's ccompat layer supports both). */
export async function deleteSubject(registryUrl: string, subject: string): Promise<void> {
  const base = `${registryUrl.replace(/\/$/, '')}/subjects/${encodeURIComponent(subject)}`;
  const soft = await fetch(base, { method: 'DELETE' });
  if (!soft.ok && soft.status !== 404) throw new Error(`DELETE ${subject}: HTTP ${soft.status}`);
  const hard = await fetch(`${base}?permanent=true`, { method: 'DELETE' });
  if (!hard.ok && hard.status !== 404) throw new Error(`DELETE ${subject}?permanent=true: HTTP ${hard.status}`);
}

/** A group is deletable once its last member has left; right after a stop the coordinator may still list it. */
export async function deleteGroups(admin: Admin, groups: string[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.deleteGroups(groups);
      return;
    } catch (e) {
      const failed = (e as { groups?: { groupId: string; error?: { type?: string } }[] }).groups ?? [];
      const reasons = failed.filter((g) => g.error).map((g) => `${g.groupId}: ${g.error?.type ?? 'error'}`);
      if (attempt >= 5) throw new Error(reasons.length ? reasons.join(', ') : String(e));
      groups = failed.length ? failed.filter((g) => g.error && g.error.type !== 'GROUP_ID_NOT_FOUND').map((g) => g.groupId) : groups;
      if (groups.length === 0) return;
      await new Promise((r) => setTimeout(r, 2_000));
    }
  }
}
