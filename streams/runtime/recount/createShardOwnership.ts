import type { KafkaConsumer, KafkaPort } from '../../kafka/index.ts';
import type { Logger } from 'pino';
import type { MarkPartitionOwner } from './createRecounter.ts';

export interface ShardOwnershipOptions {
  readonly kafka: KafkaPort;
  /** The group every recounter instance joins, e.g. `<prefix>recounter`. */
  readonly groupId: string;
  /** A topic whose partitions the group divides (never fetched: it stays paused). */
  readonly topic: string;
  /** The recounter's mark partitions, in a fixed order shared by every instance. */
  readonly markPartitions: readonly string[];
  readonly logger: Logger;
  readonly sessionTimeoutMs: number;
}

export interface ShardOwnership extends MarkPartitionOwner {
  /** Joins the group; until the first assignment arrives this instance owns nothing. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Divides the recounter's mark partitions among its instances by Kafka
 * consumer-group assignment, so each shard has one recounter and no extra
 * infrastructure is needed: every instance joins `groupId` on `topic` and
 * owns mark partition i while the group assigns it Kafka partition
 * i mod (partitions of `topic`). The topic is paused on every join, so nothing
 * is fetched and no offset is committed. A rebalance drops every shard when it
 * starts (REBALANCING) and the new assignment arrives with GROUP_JOIN; an
 * instance that crashed or paused past the session timeout loses its shards
 * to the live ones.
 */
export function createShardOwnership(opts: ShardOwnershipOptions): ShardOwnership {
  const logger = opts.logger.child({ component: 'recount-ownership', group: opts.groupId });
  let assigned: ReadonlySet<number> = new Set();
  let topicPartitions = 0;
  let consumer: KafkaConsumer | undefined;
  const index = new Map(opts.markPartitions.map((p, i) => [p, i]));
  const owns = (partition: string): boolean => {
    const i = index.get(partition);
    return i !== undefined && topicPartitions > 0 && assigned.has(i % topicPartitions);
  };

  return {
    owns,
    async start() {
      if (consumer !== undefined) return;
      const admin = opts.kafka.admin();
      await admin.connect();
      try {
        topicPartitions = (await admin.fetchTopicOffsets(opts.topic)).length;
      } finally {
        await admin.disconnect();
      }
      const c = opts.kafka.consumer({ groupId: opts.groupId, sessionTimeoutMs: opts.sessionTimeoutMs, maxWaitTimeMs: 1_000 });
      consumer = c;
      c.onRebalancing(() => {
        assigned = new Set();
      });
      c.onGroupJoin((assignment) => {
        // Paused on every join, not once after run(): kafkajs rebuilds its group after
        // a crash (a first join that fails does so before run() returns), and the new
        // group would fetch, or pause() would throw because no group exists yet.
        c.pause([{ topic: opts.topic }]);
        assigned = new Set(assignment[opts.topic] ?? []);
        const owned = opts.markPartitions.filter(owns);
        logger.info({ kafka_partitions: [...assigned], owned }, 'recount shards assigned');
      });
      c.onCrash(({ error, restart }) => {
        assigned = new Set();
        logger.warn({ err: error, restart }, 'recount ownership consumer crashed; owning nothing until it rejoins');
      });
      await c.connect();
      await c.subscribe({ topics: [opts.topic], fromBeginning: false });
      await c.run({ eachBatch: async () => {} });
    },
    async stop() {
      assigned = new Set();
      const c = consumer;
      consumer = undefined;
      await c?.disconnect();
    },
  };
}
