import cassandra from 'cassandra-driver';
import type { KafkaPort } from '../../streams/kafka/index.ts';
import { describeDrift, type ConfigDrift } from '../../schemas/config/configDrift.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { alterKeyspaceReplication, keyspaceDrift, readKeyspaceReplication } from '../../sinks/cassandra/index.ts';
import { registerSchemas } from '../../streams/serde/index.ts';
import { applyMinInsyncReplicas, ensureTopics, observeTopics, topicDrift, topicSchemas, topicSpecs, type ObservedTopic } from '../../streams/topics/index.ts';
import { checkConnections, type ConnectionCheckDeps } from '../connectionCheck.ts';
import { cassandraConnection } from '../openStore.ts';

export interface InitDeps extends ConnectionCheckDeps {
  /** `--apply`: change what differs from the config where that is safe. */
  readonly apply?: boolean;
  readonly say?: (line: string) => void;
}

/** A difference found, with how `--apply` changes it. */
type Finding = ConfigDrift & { readonly change?: () => Promise<void> };

/**
 * `edgestream init`: compares the existing topics and keyspace with the config and refuses
 * any difference, naming each; with `--apply` changes what it safely can (keyspace replication,
 * topic min.insync.replicas) and still refuses, with the operator's command, what it cannot
 * (partition counts, topic replication factors). Then creates the missing topics, registers
 * the schemas (BACKWARD) and creates the keyspace and namespaces. Idempotent.
 */
export async function initCommand(deps: InitDeps): Promise<void> {
  const say = deps.say ?? ((line: string) => console.log(line));
  await checkConnections(deps);
  const admin = (await deps.kafka()).admin();
  await admin.connect();
  // Schema changes wait for every node to agree: give them longer than a data request.
  const cql = new cassandra.Client({ ...cassandraConnection(deps.endpoints), socketOptions: { readTimeout: 60_000 } });
  try {
    const findings = [...(await topicFindings(admin, deps)), ...(await keyspaceFindings(cql, deps.config))];
    if (findings.length > 0 && !deps.apply) {
      throw new Error(`init: what exists differs from the config:\n${findings.map((f) => `  - ${describeDrift(f)}`).join('\n')}\nrun init --apply to change what can be changed safely`);
    }
    for (const f of findings) {
      if (f.fix !== 'apply' || !f.change) continue;
      await f.change();
      say(`changed ${f.subject}: ${f.difference.replace(/, config /, ' → config ')}${f.after ? `; now run: ${f.after}` : ''}`);
    }
    const manual = findings.filter((f) => f.fix === 'manual');
    if (manual.length > 0) {
      throw new Error(`init --apply cannot change these safely; nothing else was created:\n${manual.map((f) => `  - ${describeDrift(f)}`).join('\n')}`);
    }
    const topics = await ensureTopics(admin, deps.config);
    say(`topics: created ${topics.created.length ? topics.created.join(', ') : 'none'}; existing ${topics.existing.length ? topics.existing.join(', ') : 'none'}`);
  } finally {
    await admin.disconnect();
    await cql.shutdown();
  }
  const subjects = await registerSchemas(await deps.registry(), topicSchemas(deps.config));
  for (const s of subjects) say(`schema: ${s.subject} -> id ${s.schemaId} (BACKWARD)`);
  const store = await deps.store();
  await store.init();
  say(`cassandra: keyspace ${deps.config.cassandra.keyspace}, namespaces ${store.namespaces.join(', ')}`);
}

async function topicFindings(admin: ReturnType<KafkaPort['admin']>, deps: InitDeps): Promise<Finding[]> {
  const specs = topicSpecs(deps.config);
  const present = new Set(await admin.listTopics());
  const existing = specs.filter((s) => present.has(s.topic));
  const observed = await observeTopics(admin, existing.map((s) => s.topic));
  const bootstrap = deps.endpoints.kafkaBrokers.join(',');
  return existing.flatMap((spec, i) => {
    const seen = observed[i] as ObservedTopic;
    return topicDrift(spec, seen, bootstrap).map((d): Finding => (d.fix === 'apply' ? { ...d, change: () => applyMinInsyncReplicas(admin, spec, seen) } : d));
  });
}

async function keyspaceFindings(cql: cassandra.Client, config: EdgestreamConfig): Promise<Finding[]> {
  const { keyspace, replication } = config.cassandra;
  const stored = await readKeyspaceReplication(cql, keyspace);
  if (stored === undefined) return [];
  // One ALTER sets the whole replication map: the first finding carries it for all.
  return keyspaceDrift(keyspace, replication, stored).map((d, i): Finding => (i === 0 ? { ...d, change: () => alterKeyspaceReplication(cql, keyspace, replication) } : d));
}
