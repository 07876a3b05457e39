import type { LogicalTopic } from '../../processors/index.ts';

/**
 * Every topic edgestream reads or writes, by logical name. A stage's failure
 * topics hang off its input topic: `<input>.repair` (events whose writes failed,
 * retried with back-off) and `<input>.dlq` (events that can never be processed).
 */
export type TopicKey = LogicalTopic | `${LogicalTopic}.repair` | `${LogicalTopic}.dlq`;

/** The real topic name: the configured prefix (fixed after first use) plus the logical name. */
export function topicName(prefix: string, logical: TopicKey): string {
  return `${prefix}${logical}`;
}

export function repairTopicOf(input: LogicalTopic): `${LogicalTopic}.repair` {
  return `${input}.repair`;
}

export function dlqTopicOf(input: LogicalTopic): `${LogicalTopic}.dlq` {
  return `${input}.dlq`;
}
