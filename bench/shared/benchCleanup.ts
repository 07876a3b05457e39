import type { Admin } from 'kafkajs';
import cassandra from 'cassandra-driver';
import { cassandraConnection } from '../../cli/openStore.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { topicSpecs } from '../../streams/topics/index.ts';

// What a benchmark run leaves behind and removes at the end: its keyspace, registry subjects and consumer groups.

export async function dropKeyspace(endpoints: StackEndpoints, keyspace: string): Promise<void> {
  // cassandraConnection: a cluster's peers answer on its own native port, not the driver's default.
  const client = new cassandra.Client({ ...cassandraConnection(endpoints), socketOptions: { readTimeout: 120_000 } });
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

/**
 * Removes everything one benchmark run created for `config`: its topics, the
 * pipeline's consumer groups, its keyspace and the given registry subjects.
 * Best effort: every step is tried; what failed is returned, not thrown.
 */
export async function cleanUpBenchRun(deps: { admin: Admin; endpoints: StackEndpoints }, config: EdgestreamConfig, subjects: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  const attempt = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (e) {
      problems.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const topics = topicSpecs(config).map((s) => s.topic);
  const existing = new Set(await deps.admin.listTopics().catch(() => topics));
  const ourTopics = topics.filter((t) => existing.has(t));
  if (ourTopics.length > 0) await attempt('delete topics', () => deps.admin.deleteTopics({ topics: ourTopics, timeout: 30_000 }));
  const known = new Set((await deps.admin.listGroups().catch(() => ({ groups: [] }))).groups.map((g) => g.groupId));
  const groups = edgePipelineGroups(config).map((g) => g.group).filter((g) => known.has(g));
  if (groups.length > 0) await attempt('delete consumer groups', () => deleteGroups(deps.admin, groups));
  await attempt('drop keyspace', () => dropKeyspace(deps.endpoints, config.cassandra.keyspace));
  for (const subject of subjects) await attempt(`delete subject ${subject}`, () => deleteSubject(deps.endpoints.schemaRegistryUrl, subject));
  return problems;
}
