import { findErrorBy } from '@platformatic/kafka';
import type { Level } from 'pino';

/**
 * Broker answers the client retries on its own while a cluster starts or a group rebalances:
 * the group coordinator loading `__consumer_offsets`, a topic just created without a leader, a
 * member re-joining. The kafkajs adapter demotes the same answers (kafkajsLogCreator).
 */
const RETRIED_ANSWERS = new Set([
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'NOT_COORDINATOR',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_OR_FOLLOWER',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'REBALANCE_IN_PROGRESS',
  'UNKNOWN_MEMBER_ID',
  'ILLEGAL_GENERATION',
]);

/** The pino level of an error the client reported: debug for the retried start-up and rebalance answers, warn otherwise. */
export function clientLevel(error: unknown): Level {
  if (!(error instanceof Error)) return 'warn';
  for (const apiId of RETRIED_ANSWERS) if (findErrorBy(error, 'apiId', apiId) !== null) return 'debug';
  return 'warn';
}
