import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { createEdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from './edgestreamEnv.ts';
import { publishMutations } from './publishMutations.ts';
import { waitForQuiescence } from './waitForQuiescence.ts';

export interface PublishedGraph {
  readonly env: EdgestreamEnv;
  /** Stops the pipeline and the producer, then tears the env down. */
  close(): Promise<void>;
}

/**
 * A fresh env (createEdgestreamEnv) with the write path running in-process
 * (fan-out, repair, cascade, recount), `events` published in order through the
 * producer SDK and applied: every group caught up and no degree mark left.
 */
export async function publishGraph(name: string, events: readonly EdgeMutation[]): Promise<PublishedGraph> {
  const env = await createEdgestreamEnv({ name });
  const pipeline = createEdgePipeline({
    kafka: env.kafka,
    serde: env.serde,
    store: env.store,
    config: env.config,
    logger: env.logger,
    stages: ['fanout', 'repair', 'cascade', 'recount'],
    tuning: { progressIntervalMs: 600_000 },
  });
  const producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
  const close = async () => {
    await producer.close().catch(() => {});
    await pipeline.stop().catch(() => {});
    await env.teardown();
  };
  try {
    await pipeline.start();
    await publishMutations(producer, events);
    await waitForQuiescence({
      admin: env.admin,
      config: env.config,
      store: env.store,
      recount: async () => void (await pipeline.recounter?.runOnce()),
      timeoutMs: 180_000,
    });
  } catch (e) {
    await close();
    throw e;
  }
  return { env, close };
}
