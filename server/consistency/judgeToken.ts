import type { ConsistencyToken } from './consistencyToken.ts';

/**
 * Offsets read from Kafka at one moment, in this order: the fan-out group's
 * committed offsets and the input's end offsets, the repair group's committed
 * offsets, and only then the repair topic's end offsets (see `judgeToken`).
 * Per partition; a group's missing commit is absent from its map.
 */
export interface OffsetSnapshot {
  readonly inputTopic: string;
  readonly inputEnd: ReadonlyMap<number, bigint>;
  readonly fanOutCommitted: ReadonlyMap<number, bigint>;
  /** The repair group's committed offset, or the partition's start offset when it never committed. */
  readonly repairCommitted: ReadonlyMap<number, bigint>;
  readonly repairEnd: ReadonlyMap<number, bigint>;
}

export type TokenVerdict =
  | { readonly kind: 'visible' }
  /** The token cannot be waited for: another topic, no such partition, or an offset not written. */
  | { readonly kind: 'unknown'; readonly reason: string }
  | { readonly kind: 'pending'; readonly reason: string };

/**
 * Is the token's record visible to reads? Yes when the fan-out group has
 * committed past it (the runtime commits an offset only once its writes landed
 * or it was handed to the repair topic, keyed by the src its input partition
 * belongs to, so on the partition of the same number) and the repair
 * partition has no uncommitted record. The repair group's commit is read
 * before the repair end offset and after the fan-out commit, so a repair
 * handed off before that commit, or re-published for a retry before its
 * predecessor was committed, keeps the check pending.
 * Conservative: any pending repair on the partition holds back every token on it.
 * 'visible' never turns back; 'unknown' may (the input grows), so only a fresh snapshot should decide it.
 */
export function judgeToken(token: ConsistencyToken, s: OffsetSnapshot): TokenVerdict {
  if (token.topic !== s.inputTopic) return { kind: 'unknown', reason: `this server serves topic ${s.inputTopic}, not ${token.topic}` };
  const end = s.inputEnd.get(token.partition);
  if (end === undefined) return { kind: 'unknown', reason: `${s.inputTopic} has no partition ${token.partition} (it has ${s.inputEnd.size})` };
  const offset = BigInt(token.offset);
  if (offset >= end) return { kind: 'unknown', reason: `${s.inputTopic}/${token.partition} ends at offset ${end}; no record ${offset} was written` };
  const committed = s.fanOutCommitted.get(token.partition);
  if (committed === undefined || committed <= offset) {
    return { kind: 'pending', reason: `the fan-out has committed ${s.inputTopic}/${token.partition} up to ${committed ?? 'nothing'}; the token needs past ${offset}` };
  }
  const repairEnd = s.repairEnd.get(token.partition) ?? 0n;
  const repaired = s.repairCommitted.get(token.partition) ?? 0n;
  if (repaired < repairEnd) {
    return { kind: 'pending', reason: `${repairEnd - repaired} record(s) on repair partition ${token.partition} are not repaired yet` };
  }
  return { kind: 'visible' };
}
