import type { Consumer, fetchV17 } from '@platformatic/kafka';
import type { ConsumedBatch } from '../KafkaPort.ts';
import type { BatchMark, ConsumerPartitions } from './consumerPartitions.ts';
import { partitionKey } from './consumerPartitions.ts';
import { toConsumedBatches } from './toConsumedBatches.ts';

export interface FetchRoundDeps {
  readonly consumer: Consumer;
  readonly partitions: ConsumerPartitions;
  readonly fromBeginning: () => boolean;
  readonly maxBytesPerPartition: number;
}

export type RoundOutcome =
  /** Nothing to fetch: nothing assigned, or all of it paused or in hand. */
  | { readonly kind: 'idle' }
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly error: Error; readonly source: 'fetch' | 'handler' };

/** Fetch's error code for an offset the log no longer (or does not yet) hold. */
const OFFSET_OUT_OF_RANGE = 1;

/**
 * One round of the consumer: read unknown positions (the group's commits, else the log's start
 * or end), fetch every fetchable partition from its broker, hand each partition's records to
 * `handle` as one batch (at most `concurrency` at a time; none started after a failure), and
 * return once they are done. A round that a rebalance overtook hands out nothing.
 */
export async function fetchRound(
  deps: FetchRoundDeps,
  topics: readonly string[],
  concurrency: number,
  handle: (batch: ConsumedBatch, mark: BatchMark) => Promise<void>,
): Promise<RoundOutcome> {
  const { consumer, partitions } = deps;
  if (partitions.fetchable().length === 0) return { kind: 'idle' };
  const generation = partitions.generation;
  await fillPositions(deps);
  const metadata = await consumer.metadata({ topics: [...topics] });
  const requests = new Map<number, Map<string, fetchV17.FetchRequestPartition[]>>();
  const requested = new Map<string, bigint>();
  const topicNames = new Map<string, string>();
  for (const { topic, partition, key } of partitions.fetchable()) {
    const position = partitions.position(key);
    const topicMetadata = metadata.topics.get(topic);
    const leader = topicMetadata?.partitions[partition]?.leader;
    if (position === undefined || topicMetadata === undefined || leader === undefined || leader < 0) continue;
    topicNames.set(topicMetadata.id, topic);
    requested.set(key, position);
    const byTopic = requests.get(leader) ?? new Map<string, fetchV17.FetchRequestPartition[]>();
    requests.set(leader, byTopic);
    const list = byTopic.get(topicMetadata.id) ?? [];
    byTopic.set(topicMetadata.id, list);
    list.push({ partition, fetchOffset: position, partitionMaxBytes: deps.maxBytesPerPartition, currentLeaderEpoch: -1, lastFetchedEpoch: -1 });
  }
  if (requests.size === 0) return { kind: 'idle' };
  let responses: fetchV17.FetchResponse[];
  try {
    responses = await Promise.all(
      [...requests].map(([node, byTopic]) => consumer.fetch({ node, topics: [...byTopic].map(([topicId, ps]) => ({ topicId, partitions: ps })) })),
    );
  } catch (e) {
    if (await resetOutOfRange(deps, e, topicNames, generation)) return { kind: 'done' };
    return { kind: 'failed', error: e as Error, source: 'fetch' };
  }
  if (partitions.generation !== generation) return { kind: 'done' };
  const fetched = responses.flatMap((r) => toConsumedBatches(r, topicNames, requested));
  const toHandle: ConsumedBatch[] = [];
  for (const { batch, nextOffset } of fetched) {
    const key = partitionKey(batch.topic, batch.partition);
    if (batch.messages.length > 0) toHandle.push(batch);
    // Only control markers (or records before the position): consumed without a handler, as kafkajs does.
    else if (nextOffset !== undefined && partitions.position(key) === requested.get(key)) partitions.setPosition(key, nextOffset);
  }
  let failure: Error | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < toHandle.length) {
      const batch = toHandle[next++] as ConsumedBatch;
      const mark = partitions.take(partitionKey(batch.topic, batch.partition));
      try {
        await handle(batch, mark);
      } catch (e) {
        // A batch the group took away (or a seek replaced) ends quietly; its records come again from the commits.
        if (!partitions.isStale(mark)) failure ??= e as Error;
      } finally {
        partitions.release(mark);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, toHandle.length) }, worker));
  return failure === undefined ? { kind: 'done' } : { kind: 'failed', error: failure, source: 'handler' };
}

/** Positions of fetchable partitions not known yet: the group's committed offset, else the log's start (fromBeginning) or end. */
async function fillPositions(deps: FetchRoundDeps): Promise<void> {
  const { consumer, partitions } = deps;
  const unknown = partitions.fetchable().filter((p) => p.position === undefined);
  if (unknown.length === 0) return;
  const generation = partitions.generation;
  const byTopic = groupByTopic(unknown);
  const committed = await consumer.listCommittedOffsets({ topics: [...byTopic].map(([topic, ps]) => ({ topic, partitions: ps })) });
  const uncommitted = unknown.filter((p) => (committed.get(p.topic)?.[p.partition] ?? -1n) < 0n);
  const ends = uncommitted.length === 0 ? undefined : await consumer.listOffsets({ topics: [...groupByTopic(uncommitted).keys()], timestamp: deps.fromBeginning() ? -2n : -1n });
  if (partitions.generation !== generation) return;
  for (const { topic, partition, key } of unknown) {
    const offset = committed.get(topic)?.[partition] ?? -1n;
    const start = offset >= 0n ? offset : ends?.get(topic)?.[partition];
    if (start !== undefined) partitions.fillPosition(key, start);
  }
}

/** After OFFSET_OUT_OF_RANGE, the partitions it names start again at the log's start or end (kafkajs' reset). */
async function resetOutOfRange(deps: FetchRoundDeps, e: unknown, topicNames: ReadonlyMap<string, string>, generation: number): Promise<boolean> {
  const response = (e as { response?: fetchV17.FetchResponse }).response;
  const outOfRange = (response?.responses ?? []).flatMap((t) =>
    t.partitions.filter((p) => p.errorCode === OFFSET_OUT_OF_RANGE).map((p) => ({ topic: topicNames.get(t.topicId) ?? t.topicId, partition: p.partitionIndex })),
  );
  if (outOfRange.length === 0) return false;
  const ends = await deps.consumer.listOffsets({ topics: [...groupByTopic(outOfRange).keys()], timestamp: deps.fromBeginning() ? -2n : -1n });
  if (deps.partitions.generation !== generation) return true;
  for (const { topic, partition } of outOfRange) {
    const offset = ends.get(topic)?.[partition];
    if (offset !== undefined) deps.partitions.setPosition(partitionKey(topic, partition), offset);
  }
  return true;
}

function groupByTopic(list: readonly { topic: string; partition: number }[]): Map<string, number[]> {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of list) byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  return byTopic;
}
