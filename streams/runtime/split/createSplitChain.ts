import type { KafkaPort } from '../../kafka/index.ts';
import type { Logger } from 'pino';
import type { EdgestreamConfig } from '../../../schemas/config/edgestreamConfig.ts';
import { knownSchemas } from '../../../schemas/index.ts';
import { splittableNamespaces } from '../../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { createSplitLayoutReader, createWideRowRepository } from '../../../sinks/wide/index.ts';
import type { AvroSerde } from '../../serde/index.ts';
import type { Clock } from '../Clock.ts';
import type { Runner } from '../consumer/createConsumerLoop.ts';
import type { RuntimeTuning } from '../runtimeTuning.ts';
import { copyPartition } from './copyPartition.ts';
import { createSplitStageRunner } from './createSplitStageRunner.ts';
import { planPartition } from './planPartition.ts';
import type { SplitStageDeps } from './splitStageDeps.ts';
import { verifySplit } from './verifySplit.ts';

import { SPLIT_CHAIN_STAGES, SPLIT_STAGE_GROUPS, SPLIT_STAGE_INPUTS, type SplitChainStage } from './splitChainStages.ts';

export { SPLIT_CHAIN_STAGES, SPLIT_STAGE_GROUPS, SPLIT_STAGE_INPUTS, type SplitChainStage };

export interface SplitChainOptions {
  readonly kafka: KafkaPort;
  readonly serde: AvroSerde;
  /** The plain store (not the write path's mirroring one). */
  readonly store: TwoLevelMapStore;
  readonly config: EdgestreamConfig;
  readonly logger: Logger;
  readonly stages: readonly SplitChainStage[];
  readonly clock?: Clock;
  readonly tuning?: Partial<RuntimeTuning>;
}

/** The plan → split → verify runners: `wide-partitions` → planner → `split-plans` → splitter → `split-results` → verifier. */
export function createSplitChain(opts: SplitChainOptions): Map<SplitChainStage, Runner> {
  const deps: SplitStageDeps = {
    store: opts.store,
    repository: createWideRowRepository(opts.store),
    layoutReader: createSplitLayoutReader(opts.store),
    config: opts.config,
    strategies: splittableNamespaces(opts.config.edgeTypes),
  };
  const common = { kafka: opts.kafka, serde: opts.serde, config: opts.config, logger: opts.logger, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.tuning ? { tuning: opts.tuning } : {}) };
  const runners = new Map<SplitChainStage, Runner>();
  for (const stage of opts.stages) {
    const runner =
      stage === 'plan'
        ? createSplitStageRunner({ ...common, name: SPLIT_STAGE_GROUPS.plan, input: SPLIT_STAGE_INPUTS.plan, schema: knownSchemas.WidePartitionDetected, handle: (e, ctx) => planPartition(e, deps, ctx) })
        : stage === 'split'
          ? createSplitStageRunner({ ...common, name: SPLIT_STAGE_GROUPS.split, input: SPLIT_STAGE_INPUTS.split, schema: knownSchemas.SplitTask, handle: (e, ctx) => copyPartition(e, deps, ctx) })
          : createSplitStageRunner({ ...common, name: SPLIT_STAGE_GROUPS.verify, input: SPLIT_STAGE_INPUTS.verify, schema: knownSchemas.SplitTask, handle: (e, ctx) => verifySplit(e, deps, ctx) });
    runners.set(stage, runner);
  }
  return runners;
}
