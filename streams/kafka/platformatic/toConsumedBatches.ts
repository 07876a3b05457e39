import type { fetchV17 } from '@platformatic/kafka';
import type { ConsumedBatch, ConsumedRecord, RecordHeaders } from '../KafkaPort.ts';

/** A control batch (transaction markers): skipped, but its offsets are consumed. */
const IS_CONTROL = 0x20;
/** The batch's timestamps are the broker's LogAppendTime: every record has the batch's max timestamp. */
const LOG_APPEND_TIME = 0x08;

/** What one partition of a fetch response gave: its records, and the offset to fetch next. */
export interface FetchedPartition {
  readonly batch: ConsumedBatch;
  /** One past the last offset the response covered (records, skipped control markers); undefined if it covered none. */
  readonly nextOffset: bigint | undefined;
}

/**
 * A Fetch response as the port's per-partition batches: records at or after the offset that was
 * asked for (a response may start earlier, inside a compressed batch), control markers dropped,
 * offsets and timestamps as decimal strings, headers by name (a repeated name as a list).
 */
export function toConsumedBatches(response: fetchV17.FetchResponse, topicNames: ReadonlyMap<string, string>, requested: ReadonlyMap<string, bigint>): FetchedPartition[] {
  const out: FetchedPartition[] = [];
  for (const topicResponse of response.responses) {
    const topic = topicNames.get(topicResponse.topicId) ?? topicResponse.topicId;
    for (const p of topicResponse.partitions) {
      const from = requested.get(`${topic}:${p.partitionIndex}`);
      if (from === undefined || !p.records) continue;
      const messages: ConsumedRecord[] = [];
      let nextOffset: bigint | undefined;
      for (const batch of p.records) {
        nextOffset = batch.firstOffset + BigInt(batch.lastOffsetDelta) + 1n;
        if (batch.attributes & IS_CONTROL) continue;
        const logAppendTime = (batch.attributes & LOG_APPEND_TIME) !== 0;
        for (const record of batch.records) {
          const offset = batch.firstOffset + BigInt(record.offsetDelta);
          if (offset < from) continue;
          const timestamp = logAppendTime ? batch.maxTimestamp : batch.firstTimestamp + record.timestampDelta;
          messages.push({
            key: record.key,
            value: record.value,
            timestamp: timestamp.toString(),
            offset: offset.toString(),
            headers: toHeaders(record.headers),
          });
        }
      }
      out.push({ batch: { topic, partition: p.partitionIndex, messages }, nextOffset });
    }
  }
  return out;
}

function toHeaders(pairs: readonly (readonly [Buffer | null, Buffer | null])[]): RecordHeaders {
  const headers: RecordHeaders = {};
  for (const [name, value] of pairs) {
    if (name === null || value === null) continue;
    const key = name.toString();
    const previous = headers[key];
    headers[key] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return headers;
}
