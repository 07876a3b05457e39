import { randomBytes } from 'node:crypto';
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Admin } from 'kafkajs';
import { openStore } from '../../cli/openStore.ts';
import { parseEdgestreamConfig, type EdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { registerSchemas, subjectFor } from '../../streams/serde/index.ts';
import { ensureTopics, topicSchemas } from '../../streams/topics/index.ts';
import { cleanUpBenchRun } from '../shared/benchCleanup.ts';
import { SINGLE_NODE_DURABILITY, type BenchDurability } from '../shared/benchDurability.ts';
import { kafkajsAdminPort } from '../../streams/kafka/kafkajs/index.ts';

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
  /** The stack's (bench/shared/benchStack): replication, levels, topic replicas; default the single node's. */
  durability?: BenchDurability;
  log: (line: string) => void;
}): Promise<WideRun> {
  const { id } = deps;
  const durability = deps.durability ?? SINGLE_NODE_DURABILITY;
  const config = parseEdgestreamConfig(
    { ...deps.configInput, topics: { prefix: `bench.${id}.`, partitions: 6, ...durability.topics }, cassandra: { keyspace: `bench_${id}`, ...durability.cassandra } },
    'bench:wide config',
  );
  const schemas = topicSchemas(config);
  const subjects = Object.entries(schemas).map(([topic, schema]) => subjectFor(topic, schema));
  let store: TwoLevelMapStore | undefined;

  const cleanup = async (): Promise<void> => {
    const problems: string[] = [];
    if (store) await (store as TwoLevelMapStore).close().catch((e: unknown) => problems.push(`close store: ${e instanceof Error ? e.message : String(e)}`));
    problems.push(...(await cleanUpBenchRun(deps, config, subjects)));
    if (problems.length > 0) deps.log(`cleanup of ${id} incomplete: ${problems.join('; ')}`);
  };

  try {
    const topics = await ensureTopics(kafkajsAdminPort(deps.admin), config);
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
