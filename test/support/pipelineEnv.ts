import type { Mutation } from '../../sinks/store/index.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { faultyStore } from '../../streams/runtime/testing/faultyStore.ts';
import { createEdgePipeline, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv, type EdgestreamEnvOptions } from './edgestreamEnv.ts';

/** An edgestream env with every pipeline stage running in this process, and a producer SDK. */
export interface PipelineEnv {
  readonly env: EdgestreamEnv;
  readonly pipeline: EdgePipeline;
  readonly producer: EdgeProducer;
  /** Mutations for which this returns true fail with a timeout at the store seam (the pipeline's store only; `env.store` reads the truth). */
  holdBack: (m: Mutation) => boolean;
  /** Stops the producer and the pipeline, then tears the env down; safe after a failed start. */
  teardown(): Promise<void>;
}

/**
 * The setup of the pipeline-level integration tests: a fresh env, the
 * pipeline over a fault-injecting wrapper of its store (holding nothing back
 * until a test says so), started, and a producer.
 */
export async function createPipelineEnv(opts: EdgestreamEnvOptions): Promise<PipelineEnv> {
  const env = await createEdgestreamEnv(opts);
  const faulty = faultyStore(env.store);
  const pipeline = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: faulty.store, config: env.config, logger: env.logger, tuning: { progressIntervalMs: 600_000 } });
  const self: PipelineEnv = {
    env,
    pipeline,
    producer: createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config }),
    holdBack: () => false,
    async teardown() {
      await self.producer.close().catch(() => {});
      await pipeline.stop().catch(() => {});
      await env.teardown();
    },
  };
  faulty.failWrites((m) => (self.holdBack(m) ? 'timeout' : undefined));
  await pipeline.start();
  return self;
}
