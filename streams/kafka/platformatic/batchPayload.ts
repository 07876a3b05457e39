import type { Consumer } from '@platformatic/kafka';
import type { BatchPayload, ConsumedBatch, OffsetsToCommit } from '../KafkaPort.ts';
import type { BatchMark, ConsumerPartitions } from './consumerPartitions.ts';
import { KafkaAdapterError, withRetriable } from './platformaticErrors.ts';

export interface BatchPayloadDeps {
  readonly batch: ConsumedBatch;
  readonly mark: BatchMark;
  readonly partitions: ConsumerPartitions;
  readonly consumer: Consumer;
  readonly isRunning: () => boolean;
  /** Tells the fetch loop a partition was resumed. */
  readonly nudge: () => void;
}

const rebalanced = (): KafkaAdapterError => new KafkaAdapterError('the group rebalanced since this batch was fetched', true);

/**
 * The handler's hands on one batch. A resolved offset moves where the partition is fetched
 * next (unless the batch went stale); a rebalance since the fetch makes heartbeat() and a
 * commit throw (retriable), as kafkajs' do with the generation the broker no longer accepts.
 * The client heartbeats on its own timer, so heartbeat() only reports a rebalance.
 */
export function batchPayload(deps: BatchPayloadDeps): BatchPayload {
  const { batch, mark, partitions, consumer } = deps;
  const { topic, partition } = batch;
  let resolved: bigint | undefined;
  const commit = async (offsets: OffsetsToCommit): Promise<void> => {
    if (partitions.rebalancedSince(mark)) throw rebalanced();
    const list = offsets.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.topic, partition: p.partition, offset: BigInt(p.offset), leaderEpoch: -1 })));
    if (list.length === 0) return;
    try {
      await consumer.commit({ offsets: list });
    } catch (e) {
      throw withRetriable(e);
    }
  };
  return {
    batch,
    resolveOffset(offset) {
      if (partitions.isStale(mark)) return;
      resolved = BigInt(offset) + 1n;
      partitions.setPosition(mark.key, resolved);
    },
    heartbeat: async () => {
      if (partitions.rebalancedSince(mark)) throw rebalanced();
    },
    pause() {
      partitions.pause(topic, [partition]);
      return () => {
        partitions.resume(topic, partition);
        deps.nudge();
      };
    },
    commitOffsetsIfNecessary: (offsets) =>
      commit(offsets ?? { topics: resolved === undefined ? [] : [{ topic, partitions: [{ partition, offset: resolved.toString() }] }] }),
    isRunning: deps.isRunning,
    isStale: () => partitions.isStale(mark),
  };
}
