import type { ConnectionOptions } from 'node:tls';

/**
 * Kafka as the project uses it, behind one port (as `TwoLevelMapStore` hides Cassandra):
 * every producer is idempotent with acks=all, every consumer group commits by hand, and the
 * admin side does what init, the CLI, the runtime and the server's consistency tokens need.
 * Shaped by today's callers, nothing more. The default adapter is streams/kafka/kafkajs/.
 */
export interface KafkaPort {
  /** Idempotent, acks=all, one request in flight; keyed records go where Kafka's default (murmur2) partitioner puts them. */
  producer(options?: ProducerOptions): KafkaProducer;
  /** A consumer in a group; offsets move only when the batch handler resolves and commits them. */
  consumer(options: ConsumerOptions): KafkaConsumer;
  admin(options?: AdminOptions): KafkaAdmin;
  /** The partition Kafka's default partitioner (murmur2, as the Java client) puts `key` in, of `partitionCount`. */
  partitionForKey(key: string, partitionCount: number): number;
}

/** Where the brokers are and how to reach them. */
export interface KafkaConnection {
  readonly clientId: string;
  readonly brokers: readonly string[];
  /** TLS: `true` for the system CAs, or the options (CA, client certificate). */
  readonly ssl?: boolean | ConnectionOptions;
  readonly sasl?: KafkaSasl;
}

export interface KafkaSasl {
  readonly mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  readonly username: string;
  readonly password: string;
}

/** Header values; a consumed record's are Buffers, a produced one's may be strings. */
export interface RecordHeaders {
  [name: string]: Buffer | string | (Buffer | string)[] | undefined;
}

/** A consumed record. Offsets and timestamps are decimal strings (int64). */
export interface ConsumedRecord {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  /** CreateTime (or LogAppendTime), ms. */
  readonly timestamp: string;
  readonly offset: string;
  readonly headers?: RecordHeaders;
}

/** A record to produce. */
export interface ProducedRecord {
  readonly key?: Buffer | string | null;
  readonly value: Buffer | string | null;
  /** Absent: chosen from the key by the default partitioner. */
  readonly partition?: number;
  readonly headers?: RecordHeaders;
  /** CreateTime, ms as a decimal string; absent: now. */
  readonly timestamp?: string;
}

/** What the broker acknowledged for one partition of a send. */
export interface PartitionAck {
  readonly topicName: string;
  readonly partition: number;
  /** The offset of the first record appended to the partition by this send. */
  readonly baseOffset?: string;
}

export interface ProducerOptions {
  /** Told the partition each record (the very object passed to send) is sent to, before it is sent. */
  readonly onPartitioned?: (record: ProducedRecord, partition: number) => void;
}

export interface KafkaProducer {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  /** Resolves once the broker acknowledged (acks=all); one ack per partition written. */
  send(args: { readonly topic: string; readonly messages: readonly ProducedRecord[] }): Promise<PartitionAck[]>;
  /** Several topics in one request. */
  sendBatch(args: { readonly topicMessages: readonly { readonly topic: string; readonly messages: readonly ProducedRecord[] }[] }): Promise<PartitionAck[]>;
}

export interface ConsumerOptions {
  readonly groupId: string;
  readonly sessionTimeoutMs?: number;
  /** How long a fetch waits for data (for `minBytes` of it). */
  readonly maxWaitTimeMs?: number;
  /** A fetch returns once this many bytes of records are there, or after `maxWaitTimeMs`. Default 1: as soon as any are. */
  readonly minBytes?: number;
  /** Caps one fetch per partition. */
  readonly maxBytesPerPartition?: number;
}

/** Offsets to commit: the next offset to consume, per partition. */
export interface OffsetsToCommit {
  readonly topics: readonly { readonly topic: string; readonly partitions: readonly { readonly partition: number; readonly offset: string }[] }[];
}

/** The records of one partition that one fetch returned. */
export interface ConsumedBatch {
  readonly topic: string;
  readonly partition: number;
  readonly messages: ConsumedRecord[];
}

/** What a batch handler gets: the batch, and the consumer's hands on its offsets, liveness and partition. */
export interface BatchPayload {
  readonly batch: ConsumedBatch;
  /** Marks `offset` processed: a re-delivery after a failure starts after it. */
  resolveOffset(offset: string): void;
  /** Keeps the group membership alive during a long batch; throws on a rebalance. */
  heartbeat(): Promise<void>;
  /** Pauses this partition; the function returned resumes it. */
  pause(): () => void;
  commitOffsetsIfNecessary(offsets?: OffsetsToCommit): Promise<void>;
  /** False once the consumer is stopping. */
  isRunning(): boolean;
  /** True when the partition was revoked or seeked since the batch was fetched. */
  isStale(): boolean;
}

export interface ConsumerCrash {
  readonly error: Error;
  /** Whether the consumer restarts itself; false: it stopped for good. */
  readonly restart: boolean;
}

export interface KafkaConsumer {
  connect(): Promise<void>;
  /** Leaves the group once the batch in flight is done. */
  disconnect(): Promise<void>;
  subscribe(args: { readonly topics: readonly string[]; readonly fromBeginning: boolean }): Promise<void>;
  /** Starts consuming; resolves once running. Nothing is resolved or committed but what the handler resolves and commits. */
  run(args: { readonly partitionsConsumedConcurrently?: number; readonly eachBatch: (payload: BatchPayload) => Promise<void> }): Promise<void>;
  /** Pauses whole topics, or the listed partitions of them. */
  pause(topics: readonly { readonly topic: string; readonly partitions?: readonly number[] }[]): void;
  /** Fetches `partition` from `offset` next. */
  seek(args: { readonly topic: string; readonly partition: number; readonly offset: string }): void;
  /** Every group join, with this member's assignment (topic → partitions), before anything of it is fetched. */
  onGroupJoin(listener: (assignment: Readonly<Record<string, readonly number[]>>) => void): void;
  /** A rebalance began: the assignment is about to change. */
  onRebalancing(listener: () => void): void;
  onCrash(listener: (crash: ConsumerCrash) => void): void;
}

export interface AdminOptions {
  /** Retries of a failed request (default: the adapter's); 0 answers at once, for probes. */
  readonly retries?: number;
}

export interface TopicToCreate {
  readonly topic: string;
  readonly numPartitions: number;
  readonly replicationFactor: number;
  readonly configEntries?: readonly { readonly name: string; readonly value: string }[];
}

export interface TopicMetadata {
  readonly name: string;
  readonly partitions: readonly { readonly partitionId: number; readonly leader: number; readonly replicas: readonly number[] }[];
}

/** A partition's offsets: `low` the first kept, `high` the end (the next to be written). */
export interface PartitionOffsets {
  readonly partition: number;
  readonly low: string;
  readonly high: string;
}

/** A group's committed offset on one partition; '-1' when it has committed none. */
export interface CommittedOffset {
  readonly partition: number;
  readonly offset: string;
}

/** A topic's config as the broker reports it. */
export interface TopicConfig {
  readonly topic: string;
  readonly entries: readonly { readonly name: string; readonly value: string; /** Set on the topic itself (not a broker default). */ readonly topicOverride: boolean }[];
}

/** A consumer group as its coordinator describes it. */
export interface GroupDescription {
  readonly groupId: string;
  /** Kafka's name of the state: 'Stable', 'Empty', 'PreparingRebalance', 'CompletingRebalance' or 'Dead' (a group that does not exist). */
  readonly state: string;
  /** Each member with the partitions it holds (topic → partitions); empty while the group rebalances. */
  readonly members: readonly { readonly memberId: string; readonly clientId: string; readonly assignment: Readonly<Record<string, readonly number[]>> }[];
}

export interface KafkaAdmin {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  describeCluster(): Promise<{ readonly brokers: readonly { readonly nodeId: number; readonly host: string; readonly port: number }[]; readonly clusterId: string }>;
  listTopics(): Promise<string[]>;
  /** Does not wait for leaders unless asked (`waitForLeaders`); false when every topic already existed. */
  createTopics(args: { readonly topics: readonly TopicToCreate[]; readonly waitForLeaders?: boolean; readonly timeout?: number }): Promise<boolean>;
  deleteTopics(args: { readonly topics: readonly string[] }): Promise<void>;
  fetchTopicMetadata(args: { readonly topics: readonly string[] }): Promise<{ readonly topics: readonly TopicMetadata[] }>;
  describeTopicConfigs(topics: readonly string[]): Promise<TopicConfig[]>;
  /** Replaces the topic's whole set of overrides with `entries`. */
  alterTopicConfigs(topic: string, entries: readonly { readonly name: string; readonly value: string }[]): Promise<void>;
  fetchTopicOffsets(topic: string): Promise<PartitionOffsets[]>;
  /** Per partition, the first offset whose timestamp is at or after `timestampMs` (the end offset when none is). */
  fetchTopicOffsetsByTimestamp(topic: string, timestampMs: number): Promise<{ readonly partition: number; readonly offset: string }[]>;
  fetchOffsets(args: { readonly groupId: string; readonly topics: readonly string[] }): Promise<{ readonly topic: string; readonly partitions: readonly CommittedOffset[] }[]>;
  describeGroup(groupId: string): Promise<GroupDescription>;
  /** Deletes groups that have no members (a group with members, or none by that id, is an error). */
  deleteGroups(groupIds: readonly string[]): Promise<void>;
  /** Sets a group's committed offsets, e.g. to replay (the group must have no members). */
  setGroupOffsets(args: { readonly groupId: string; readonly topic: string; readonly partitions: readonly { readonly partition: number; readonly offset: string }[] }): Promise<void>;
}
