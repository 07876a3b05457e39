import type { EdgestreamConfig } from '../../../schemas/config/edgestreamConfig.ts';
import type { SplitStrategy, WideRowRecord } from '../../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { SplitLayoutReader, WideRowRepository } from '../../../sinks/wide/index.ts';
import type { StageContext } from './createSplitStageRunner.ts';

/** What every split stage reads and writes. */
export interface SplitStageDeps {
  /** The plain store: the stages read originals and write split tables directly, never through the mirror. */
  readonly store: TwoLevelMapStore;
  readonly repository: WideRowRepository;
  readonly layoutReader: SplitLayoutReader;
  readonly config: EdgestreamConfig;
  readonly strategies: ReadonlyMap<string, SplitStrategy>;
}

/**
 * Hands a partition to the next stage: the SplitTask of `record` on
 * `split-plans` (planned → splitter) or `split-results` (copied → verifier),
 * keyed by (namespace, partition) so one partition's tasks stay in order.
 */
export async function announceNextStage(topic: 'split-plans' | 'split-results', record: WideRowRecord, ctx: StageContext): Promise<void> {
  await ctx.emit({
    topic,
    key: `${record.namespace}\u0000${record.partitionId}`,
    value: { namespace: record.namespace, partition_id: record.partitionId, generation: record.generation, requested_at: BigInt(record.updatedAt) },
  });
}

export const micros = (ms: number): number => Math.round(ms * 1_000);
export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const unhex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
