import { randomBytes } from 'node:crypto';
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Admin } from 'kafkajs';
import { openStore } from '../../cli/openStore.ts';
import { parseEdgestreamConfig, type EdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { registerSchemas, subjectFor } from '../../streams/serde/index.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { ensureTopics, topicSchemas, topicSpecs } from '../../streams/topics/index.ts';
import { deleteGroups, deleteSubject, dropKeyspace } from '../shared/benchCleanup.ts';

/**
 * One throwaway deployment for the wide bench: a fresh topic prefix
 * (`bench.<run>.`) and keyspace (`bench_<run>`), initialised the way
 * `edgestream init` does it — topics (ensureTopics), every topic's schema
 * (registerSchemas(registry, topicSchemas(config))) and the keyspace with
 * every namespace, split tables included (store.init()). `cleanup` deletes
 * the topics, the consumer groups of the pipeline, the registry subjects and
 * the keyspace.
 */
export interface WideRun {
  readonly id: string;
  readonly config: EdgestreamConfig;
  /** The store (cli/openStore: every namespace, mutationConcurrency = runtime.writeConcurrency). */
  readonly store: TwoLevelMapStore;
  readonly subjects: readonly string[];
  cleanup(): Promise<void>;
}

export const newRunId = (): string => `w${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

export async function createWideRun(deps: {
  admin: Admin;
  registry: SchemaRegistry;
  endpoints: StackEndpoints;
  id: string;
  configInput: Omit<EdgestreamConfigInput, 'topics' | 'cassandra'>;
  log: (line: string) => void;
}): Promise<WideRun> {
  const { id } = deps;
  const config = parseEdgestreamConfig(
    { ...deps.configInput, topics: { prefix: `bench.${id}.`, partitions: 6, replicationFactor: 1 }, cassandra: { keyspace: `bench_${id}`, replicationFactor: 1 } },
    'bench:wide config',
  );
  const schemas = topicSchemas(config);
  const subjects = Object.entries(schemas).map(([topic, schema]) => subjectFor(topic, schema));
  let store: TwoLevelMapStore | undefined;

  const cleanup = async (): Promise<void> => {
    const problems: string[] = [];
    const attempt = async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (e) {
        problems.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
      }
    };
    if (store) await attempt('close store', () => (store as TwoLevelMapStore).close());
    const topics = topicSpecs(config).map((s) => s.topic);
    const existing = new Set(await deps.admin.listTopics().catch(() => topics));
    const ours = topics.filter((t) => existing.has(t));
    if (ours.length > 0) await attempt('delete topics', () => deps.admin.deleteTopics({ topics: ours, timeout: 30_000 }));
    const known = new Set((await deps.admin.listGroups().catch(() => ({ groups: [] }))).groups.map((g) => g.groupId));
    const groups = edgePipelineGroups(config).map((g) => g.group).filter((g) => known.has(g));
    if (groups.length > 0) await attempt('delete consumer groups', () => deleteGroups(deps.admin, groups));
    await attempt('drop keyspace', () => dropKeyspace(deps.endpoints, config.cassandra.keyspace));
    for (const subject of subjects) await attempt(`delete subject ${subject}`, () => deleteSubject(deps.endpoints.schemaRegistryUrl, subject));
    if (problems.length > 0) deps.log(`cleanup of ${id} incomplete: ${problems.join('; ')}`);
  };

  try {
    const topics = await ensureTopics(deps.admin, config);
    const registered = await registerSchemas(deps.registry, schemas);
    store = await openStore(deps.endpoints, config);
    await store.init();
    deps.log(`init: ${topics.created.length} topics created, ${registered.length} schemas registered (${registered.map((r) => `${r.subject}#${r.schemaId}`).join(', ')}), keyspace ${config.cassandra.keyspace} with ${store.namespaces.length} namespaces`);
  } catch (e) {
    await cleanup();
    throw e;
  }
  return { id, config, store, subjects, cleanup };
}
