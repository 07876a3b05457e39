import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Admin } from 'kafkajs';
import { parseEdgestreamConfig, type EdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import { knownSchemas } from '../../schemas/index.ts';
import { createCassandraStore } from '../../sinks/cassandra/index.ts';
import { cassandraStoreConfigFor } from '../../cli/openStore.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { registerSchemas, subjectFor } from '../../streams/serde/index.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { ensureTopics, topicName } from '../../streams/topics/index.ts';
import { cleanUpBenchRun } from '../shared/benchCleanup.ts';
import { SINGLE_NODE_DURABILITY, type BenchDurability } from '../shared/benchDurability.ts';
import { kafkajsAdminPort } from '../../streams/kafka/kafkajs/index.ts';

/**
 * One throwaway pipeline deployment: a fresh topic prefix and keyspace, the
 * config file the child processor reads, topics, the registered schema and the
 * keyspace with every namespace (what `edgestream init` does). `cleanup`
 * deletes the topics, consumer groups, registry subject and keyspace.
 */
export interface BenchRun {
  readonly id: string;
  readonly config: EdgestreamConfig;
  readonly configFile: string;
  readonly dir: string;
  readonly inputTopic: string;
  readonly fanOutGroup: string;
  /** The repair stage's group and topic: writes that failed are only written once it has caught up. */
  readonly repair: { readonly group: string; readonly topic: string };
  cleanup(): Promise<void>;
}

export function newRunId(label: string): string {
  return `${label}${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}

export async function createBenchRun(deps: {
  admin: Admin;
  registry: SchemaRegistry;
  endpoints: StackEndpoints;
  id: string;
  configInput: Omit<EdgestreamConfigInput, 'topics' | 'cassandra'> & { topics?: { partitions?: number } };
  /** The stack's (bench/shared/benchStack): replication, levels, topic replicas; default the single node's. */
  durability?: BenchDurability;
  log: (line: string) => void;
}): Promise<BenchRun> {
  const { id } = deps;
  const durability = deps.durability ?? SINGLE_NODE_DURABILITY;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `edgestream-bench-${id}-`));
  const raw: EdgestreamConfigInput = {
    ...deps.configInput,
    topics: { prefix: `bench.${id}.`, partitions: deps.configInput.topics?.partitions ?? 6, ...durability.topics },
    cassandra: { keyspace: `bench_${id}`, ...durability.cassandra },
  };
  const config = parseEdgestreamConfig(raw, 'bench config');
  const configFile = path.join(dir, 'edgestream.config.json');
  fs.writeFileSync(configFile, `${JSON.stringify(raw, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
  const inputTopic = topicName(config.topics.prefix, 'edge-mutations');
  const fanOutGroup = edgePipelineGroups(config).find((g) => g.stage === 'fanout')?.group as string;
  const repairStage = edgePipelineGroups(config).find((g) => g.stage === 'repair');
  if (repairStage === undefined) throw new Error('no repair group in edgePipelineGroups');
  const repair = { group: repairStage.group, topic: repairStage.topic };
  const subject = subjectFor(inputTopic, knownSchemas.EdgeMutation);

  const cleanup = async (): Promise<void> => {
    const problems = await cleanUpBenchRun(deps, config, [subject]);
    fs.rmSync(dir, { recursive: true, force: true });
    if (problems.length > 0) deps.log(`cleanup of ${id} incomplete: ${problems.join('; ')}`);
  };

  try {
    await ensureTopics(kafkajsAdminPort(deps.admin), config);
    await registerSchemas(deps.registry, { [inputTopic]: knownSchemas.EdgeMutation });
    const store = await createCassandraStore(cassandraStoreConfigFor(deps.endpoints, config));
    try {
      await store.init();
    } finally {
      await store.close();
    }
  } catch (e) {
    await cleanup();
    throw e;
  }
  return { id, config, configFile, dir, inputTopic, fanOutGroup, repair, cleanup };
}
