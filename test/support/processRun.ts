import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { groupLag } from '../../cli/commands/lag.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv, type EdgestreamEnvOptions } from './edgestreamEnv.ts';
import { applyLww } from './model/applyLww.ts';
import { modelGraphLines } from './model/graphLines.ts';
import { lineDiff, readFullStoreGraph } from './model/readFullStoreGraph.ts';
import { killAll, startProcessorProcess, type ProcessorProcess } from './processorProcess.ts';
import { publishMutations } from './publishMutations.ts';

/** A test that runs `edgestream run` as child processes on a fresh env: their config file, logs and the producer that feeds them. */
export interface ProcessRun {
  readonly env: EdgestreamEnv;
  readonly producer: EdgeProducer;
  /** The config file and the processes' logs (kept with IT_KEEP_LOGS=1). */
  readonly dir: string;
  /** Starts `edgestream run <stages>` logging to `<dir>/processor-<n>-<name>.log`. */
  start(stages: readonly string[], name: string): ProcessorProcess;
  /** Records of the input topic the fan-out group has committed (its progress). */
  fanOutCommitted(): Promise<number>;
  /** SIGKILLs every process still alive (by pid), closes the producer, drops the env. */
  close(): Promise<void>;
}

/** `options` adds settings of the env's config (the wide-partition chain's, the runtime's) to what createEdgestreamEnv sets. */
export async function openProcessRun(name: string, partitions: number, options: Pick<EdgestreamEnvOptions, 'wide' | 'runtime'> = {}): Promise<ProcessRun> {
  const env = await createEdgestreamEnv({ name, partitions, ...options });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `edgestream-${name}-`));
  const configFile = path.join(dir, 'edgestream.config.json');
  console.log(`processor config and logs in ${dir}`);
  fs.writeFileSync(configFile, JSON.stringify(env.configInput, null, 2));
  const producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
  const processes = new Set<ProcessorProcess>();
  const fanOut = edgePipelineGroups(env.config).find((g) => g.stage === 'fanout');
  if (!fanOut) throw new Error('no fan-out group');
  const childEnv = { ...endpointsToEnv(env.endpoints), LOG_LEVEL: 'info' };
  let n = 0;
  return {
    env,
    producer,
    dir,
    start: (stages, processName) => startProcessorProcess({ configFile, stages, env: childEnv, logPath: path.join(dir, `processor-${n++}-${processName}.log`), registry: processes }),
    async fanOutCommitted() {
      const lag = await groupLag(env.admin, fanOut.group, fanOut.topic);
      return lag.partitions.reduce((sum, p) => sum + (p.committed === '-1' ? 0 : Number(p.committed)), 0);
    },
    async close() {
      await killAll(processes); // never leave a child behind, whatever happened
      await producer.close().catch(() => {});
      await env.teardown();
      if (!process.env['IT_KEEP_LOGS']) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Publishes `events` in slices of 1 000 at about `perSecond` from `t0` (ms), reporting how many are out after each slice. */
export async function publishPaced(producer: EdgeProducer, events: readonly EdgeMutation[], perSecond: number, t0: number, published: (n: number) => void): Promise<void> {
  for (let i = 0; i < events.length; i += 1_000) {
    await publishMutations(producer, events.slice(i, i + 1_000));
    const n = Math.min(events.length, i + 1_000);
    published(n);
    await sleep(t0 + (n * 1_000) / perSecond - Date.now());
  }
}

/** The whole store against the LWW model of `events`: every line missing from it and every extra one. */
export async function storeAgainstModel(env: EdgestreamEnv, events: readonly EdgeMutation[]): Promise<{ expected: string[]; actual: string[]; missing: string[]; extra: string[] }> {
  const expected = modelGraphLines(applyLww(events));
  const actual = await readFullStoreGraph(env.store, env.cql, env.config.cassandra.keyspace, env.config.edgeTypes.map((t) => t.name));
  return { expected, actual, ...lineDiff(expected, actual) };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
