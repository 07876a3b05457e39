// An experimental stand-in for `edgestream --config <file> run <stages...>` that exposes knobs the
// config file does not (store mutationConcurrency, runtime tuning), so the bench can test what a
// default change would buy before anyone changes a default. Same composition as cli/main.ts `run`:
// config from --config, stack from the environment, createEdgePipeline, graceful stop on SIGTERM.
// Use: npm run bench:ingest -- --child-entry bench/ingest/tunedProcessor.js --child-arg=--mutation-concurrency=64
import { parseArgs } from 'node:util';
import { connectClients } from '../../cli/connectClients.ts';
import { createCliLogger } from '../../cli/commandContext.ts';
import { loadConfig } from '../../cli/loadConfig.ts';
import { cassandraStoreConfigFor } from '../../cli/openStore.ts';
import { createCassandraStore } from '../../sinks/cassandra/index.ts';
import { edgestreamNamespaces, NODE_TOMBSTONES_NAMESPACE } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { endpointsFromEnv } from '../../stack/endpoints.ts';
import { stopOnSignals, type RuntimeTuning } from '../../streams/runtime/index.ts';
import { createAvroSerde } from '../../streams/serde/index.ts';
import { createEdgePipeline, EDGE_PIPELINE_STAGES, type EdgePipelineStage } from '../../streams/topology/createEdgePipeline.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    config: { type: 'string' },
    'mutation-concurrency': { type: 'string' },
    'max-batch-statements': { type: 'string' },
    'max-batch-partitions': { type: 'string' },
    'max-records-per-chunk': { type: 'string' },
    'read-concurrency': { type: 'string' },
    'max-bytes-per-partition': { type: 'string' },
    'no-colocate-writes': { type: 'boolean', default: false },
    // What-ifs that change semantics, only to measure what a piece of work costs:
    'what-if-no-tombstone-reads': { type: 'boolean', default: false },
    'what-if-no-chunking': { type: 'boolean', default: false },
    // Sampling allocation profile (garbage included) written here on stop: who makes the GC work.
    'alloc-profile': { type: 'string' },
  },
});
const int = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const [command, ...stageArgs] = positionals;
if (command !== 'run') throw new Error(`tunedProcessor: expected "run", got ${command}`);
const stages = (stageArgs.length === 0 || stageArgs.includes('all') ? [...EDGE_PIPELINE_STAGES] : stageArgs) as EdgePipelineStage[];

const { config } = loadConfig(values.config);
const endpoints = endpointsFromEnv(process.env);
if (!endpoints) throw new Error('tunedProcessor: set KAFKA_BROKERS, SCHEMA_REGISTRY_URL and CASSANDRA_CONTACT_POINTS');
const logger = createCliLogger();
const { kafka, registry } = await connectClients(endpoints, 'edgestream-bench-tuned');
const mutationConcurrency = int(values['mutation-concurrency']);
const maxBatchStatements = int(values['max-batch-statements']);
const maxBatchPartitions = int(values['max-batch-partitions']);
const cassandraStore = await createCassandraStore({
  ...cassandraStoreConfigFor(endpoints, config),
  namespaces: edgestreamNamespaces(config).map((n) => (values['what-if-no-chunking'] ? { ...n, chunking: false } : n)),
  ...(mutationConcurrency === undefined ? {} : { mutationConcurrency }),
  ...(maxBatchStatements === undefined ? {} : { maxBatchStatements }),
  ...(maxBatchPartitions === undefined ? {} : { maxBatchPartitions }),
  ...(values['no-colocate-writes'] ? { colocateWrites: false } : {}),
});
const store: TwoLevelMapStore = values['what-if-no-tombstone-reads'] ? withoutTombstoneReads(cassandraStore) : cassandraStore;
const tuning: Partial<RuntimeTuning> = {};
const set = (k: keyof RuntimeTuning, v: number | undefined) => {
  if (v !== undefined) (tuning as Record<string, number>)[k] = v;
};
set('maxRecordsPerChunk', int(values['max-records-per-chunk']));
set('readConcurrency', int(values['read-concurrency']));
set('maxBytesPerPartition', int(values['max-bytes-per-partition']));
const allocProfile = values['alloc-profile'] === undefined ? undefined : await startAllocationProfile(values['alloc-profile']);
const pipeline = createEdgePipeline({ kafka, serde: createAvroSerde({ registry }), store, config, logger, stages, tuning });
const removeSignals = stopOnSignals([pipeline], { logger });
await pipeline.start();
logger.info({ stages, groups: pipeline.groups, mutationConcurrency, maxBatchStatements, maxBatchPartitions, tuning }, 'running; SIGTERM or SIGINT stops gracefully');
try {
  await pipeline.done;
} finally {
  removeSignals();
  await store.close();
  await allocProfile?.stop();
}

/**
 * V8's sampling heap profiler with collected objects included (what `--heap-prof` leaves out):
 * the profile then shows where the allocation volume comes from, not only what survived.
 */
async function startAllocationProfile(file: string): Promise<{ stop(): Promise<void> }> {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  return {
    async stop() {
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: unknown };
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** Every node tombstone read answers "none" without asking Cassandra (a what-if: wrong once nodes are removed). */
function withoutTombstoneReads(inner: TwoLevelMapStore): TwoLevelMapStore {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop !== 'namespace') return Reflect.get(target, prop, receiver) as unknown;
      return (name: string) => {
        const ns = target.namespace(name);
        if (name !== NODE_TOMBSTONES_NAMESPACE) return ns;
        return new Proxy(ns, { get: (t, p, r) => (p === 'get' ? async () => undefined : (Reflect.get(t, p, r) as unknown)) });
      };
    },
  });
}
