import type { fetchV17 } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { toConsumedBatches } from './toConsumedBatches.ts';

type RecordsBatch = NonNullable<fetchV17.FetchResponsePartition['records']>[number];

const record = (offsetDelta: number, key: string | null, value: string | null, headers: [string, string][] = []) => ({
  length: 0,
  attributes: 0,
  timestampDelta: BigInt(offsetDelta * 10),
  offsetDelta,
  key: key === null ? null : Buffer.from(key),
  value: value === null ? null : Buffer.from(value),
  headers: headers.map(([k, v]) => [Buffer.from(k), Buffer.from(v)] as [Buffer, Buffer]),
});

const batch = (firstOffset: bigint, attributes: number, records: ReturnType<typeof record>[], lastOffsetDelta = records.length - 1): RecordsBatch => ({
  firstOffset,
  length: 0,
  partitionLeaderEpoch: 0,
  magic: 2,
  crc: 0,
  attributes,
  lastOffsetDelta,
  firstTimestamp: 1_000n,
  maxTimestamp: 9_000n,
  producerId: 1n,
  producerEpoch: 0,
  firstSequence: 0,
  records,
});

const response = (partitions: { partitionIndex: number; records: RecordsBatch[] | null }[]): fetchV17.FetchResponse => ({
  throttleTimeMs: 0,
  errorCode: 0,
  sessionId: 0,
  responses: [
    {
      topicId: 'id-t',
      partitions: partitions.map((p) => ({ ...p, errorCode: 0, highWatermark: 0n, lastStableOffset: 0n, logStartOffset: 0n, abortedTransactions: null, preferredReadReplica: -1 })),
    },
  ],
});

const names = new Map([['id-t', 't']]);

describe("a fetch response as the port's batches", () => {
  it('gives each partition its records from the position on, with offsets, timestamps, null keys and values, and repeated headers as lists', () => {
    const fetched = toConsumedBatches(
      response([{ partitionIndex: 0, records: [batch(10n, 0, [record(0, 'a', 'x'), record(1, null, null, [['h', '1'], ['h', '2'], ['g', '3']]), record(2, 'c', 'z')])] }]),
      names,
      new Map([['t:0', 11n]]),
    );
    expect(fetched).toEqual([
      {
        nextOffset: 13n,
        batch: {
          topic: 't',
          partition: 0,
          messages: [
            { key: null, value: null, offset: '11', timestamp: '1010', headers: { h: [Buffer.from('1'), Buffer.from('2')], g: Buffer.from('3') } },
            { key: Buffer.from('c'), value: Buffer.from('z'), offset: '12', timestamp: '1020', headers: {} },
          ],
        },
      },
    ]);
  });

  it('skips control batches but counts their offsets, uses LogAppendTime when the batch says so, and ignores partitions not asked for', () => {
    const fetched = toConsumedBatches(
      response([
        { partitionIndex: 0, records: [batch(0n, 0x08, [record(0, 'a', 'x')]), batch(1n, 0x20, [record(0, null, 'marker')])] },
        { partitionIndex: 1, records: [batch(0n, 0, [record(0, 'b', 'y')])] },
        { partitionIndex: 2, records: null },
      ]),
      names,
      new Map([['t:0', 0n], ['t:2', 0n]]),
    );
    expect(fetched.map((f) => [f.batch.partition, f.batch.messages.map((m) => [m.offset, m.timestamp]), f.nextOffset])).toEqual([[0, [['0', '9000']], 2n]]);
  });
});
