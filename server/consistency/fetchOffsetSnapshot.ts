import type { KafkaAdmin } from '../../streams/kafka/index.ts';
import type { OffsetSnapshot } from './judgeToken.ts';

export interface WatchedGroups {
  readonly inputTopic: string;
  readonly fanOutGroup: string;
  readonly repairTopic: string;
  readonly repairGroup: string;
}

function byPartition<R extends { readonly partition: number }>(rows: readonly R[], value: (row: R) => bigint | undefined): Map<number, bigint> {
  const map = new Map<number, bigint>();
  for (const r of rows) {
    const v = value(r);
    if (v !== undefined) map.set(r.partition, v);
  }
  return map;
}

/**
 * One OffsetSnapshot, read in the order `judgeToken` relies on: the fan-out
 * commits, the input end offsets and the repair commits at once, then the
 * repair end offsets.
 */
export async function fetchOffsetSnapshot(admin: KafkaAdmin, g: WatchedGroups): Promise<OffsetSnapshot> {
  const [fanOut, inputEnds, repairCommits] = await Promise.all([
    admin.fetchOffsets({ groupId: g.fanOutGroup, topics: [g.inputTopic] }),
    admin.fetchTopicOffsets(g.inputTopic),
    admin.fetchOffsets({ groupId: g.repairGroup, topics: [g.repairTopic] }),
  ]);
  const repairEnds = await admin.fetchTopicOffsets(g.repairTopic);
  const committed = (offset: string): bigint | undefined => (offset === '-1' || offset === '' ? undefined : BigInt(offset));
  const repairStart = byPartition(repairEnds, (r) => BigInt(r.low));
  const repairCommitted = byPartition(repairCommits[0]?.partitions ?? [], (r) => committed(r.offset));
  for (const [p, low] of repairStart) if (!repairCommitted.has(p)) repairCommitted.set(p, low);
  return {
    inputTopic: g.inputTopic,
    inputEnd: byPartition(inputEnds, (r) => BigInt(r.high)),
    fanOutCommitted: byPartition(fanOut[0]?.partitions ?? [], (r) => committed(r.offset)),
    repairCommitted,
    repairEnd: byPartition(repairEnds, (r) => BigInt(r.high)),
  };
}
