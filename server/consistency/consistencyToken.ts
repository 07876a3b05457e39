import type { RecordCoordinates } from '../../streams/producer/index.ts';

/**
 * A consistency token names one published record: `<topic>:<partition>:<offset>`.
 * Kafka topic names cannot contain ':', so the last two fields split cleanly.
 * Readable on purpose: it is what `GET ...?after=` takes back.
 */
export type ConsistencyToken = RecordCoordinates;

export function formatConsistencyToken(at: RecordCoordinates): string {
  return `${at.topic}:${at.partition}:${at.offset}`;
}

const TOKEN = /^([a-zA-Z0-9._-]{1,249}):(\d{1,6}):(\d{1,19})$/;
const MAX_OFFSET = (1n << 63n) - 1n;

/** The token, or a reason it is malformed (never throws). */
export function parseConsistencyToken(text: string): { ok: true; token: ConsistencyToken } | { ok: false; reason: string } {
  const m = TOKEN.exec(text);
  if (!m) return { ok: false, reason: 'must be a consistency token <topic>:<partition>:<offset> as returned by POST /v1/mutations' };
  const [, topic = '', partition = '', offset = ''] = m;
  if (BigInt(offset) > MAX_OFFSET) return { ok: false, reason: 'offset is beyond int64' };
  return { ok: true, token: { topic, partition: Number(partition), offset: BigInt(offset).toString() } };
}
