import { randomUUID } from 'node:crypto';
import type { KafkaPort, KafkaProducer, ProducedRecord } from '../kafka/index.ts';
import { LRUCache } from 'lru-cache';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { EdgeOp, knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { subjectFor, type AvroSerde } from '../serde/index.ts';
import { systemClock, type Clock } from '../runtime/Clock.ts';
import { topicName } from '../topics/index.ts';
import { buildMutation, type CommonArgs, type EdgeArgs, type EdgeValueArgs, type Properties } from './buildMutation.ts';
import { createEventClock } from './createEventClock.ts';
import { createSendBuffer, type OutgoingMessage } from './createSendBuffer.ts';
import { ProducerError } from './ProducerError.ts';
import { recordCoordinates, type RecordCoordinates } from './recordCoordinates.ts';

/** What a call produced, once Kafka acknowledged it: the ids it carries and where its record was appended. */
export interface SentMutation extends RecordCoordinates {
  readonly mutationId: string;
  readonly eventTime: bigint;
}

/**
 * The producer SDK for the edge-mutation topic. Every method validates its
 * arguments with the rules the runtime applies (a bad call throws
 * ProducerError INVALID_ARGUMENT naming the argument, nothing is sent), fills
 * `mutationId` (random UUID) and `eventTime` (wall clock µs, strictly
 * increasing per instance) when absent — a call repeating a `mutationId` it
 * was given before gets that call's `eventTime` (a retry must not move later
 * than a removal made since) — keys the record by the edge's src (the
 * vertex for removeNode), and resolves when Kafka acknowledged it (acks=all,
 * idempotent producer). Calls are batched: a batch goes out when full, or
 * when the batch before it was acknowledged (or after `lingerMs` when one is
 * set); issue calls concurrently and `flush()` for throughput.
 */
export interface EdgeProducer {
  /** Each call resolves with the record's ids and its topic, partition and offset (a read-your-writes token). */
  addEdge(args: EdgeValueArgs & { readonly properties?: Properties }): Promise<SentMutation>;
  removeEdge(args: EdgeArgs): Promise<SentMutation>;
  /**
   * Hides the edge: a point read still returns it (state HIDDEN), neighbour
   * pages, counts and traversals leave it out. Like every link op it writes the
   * whole link value, so pass the edge's `edgeTime` and `data` to keep them.
   */
  hideEdge(args: EdgeValueArgs): Promise<SentMutation>;
  /** Makes the edge ACTIVE again (as addEdge without properties); without `edgeTime` it moves to the front. */
  unhideEdge(args: EdgeValueArgs): Promise<SentMutation>;
  setProperties(args: EdgeArgs & { readonly properties: Properties }): Promise<SentMutation>;
  /** Deletes the named properties; `keys: []` clears the whole bag. */
  removeProperties(args: EdgeArgs & { readonly keys: readonly string[] }): Promise<SentMutation>;
  /** Removes a vertex: every edge of every type, via the asynchronous cascade. */
  removeNode(args: CommonArgs & { readonly vertex: string }): Promise<SentMutation>;
  /** Sends everything queued; rejects if any of it was not acknowledged. */
  flush(): Promise<void>;
  /** Flushes, then disconnects. Later calls reject with CLOSED. Idempotent. */
  close(): Promise<void>;
}

export interface EdgeProducerOptions {
  readonly kafka: KafkaPort;
  /** Encodes with the latest EdgeMutation schema registered under `<prefix>edge-mutations-value`. */
  readonly serde: AvroSerde;
  readonly config: EdgestreamConfig;
  readonly clock?: Clock;
  readonly newMutationId?: () => string;
  /**
   * How long a batch's first call may wait for more. Default 0: a batch goes out as soon as the one
   * before it was acknowledged (calls made meanwhile go together), so an awaited call costs one round
   * trip and no timer, and concurrent calls still share requests.
   */
  readonly lingerMs?: number;
  /** Default 500. */
  readonly maxBatchMessages?: number;
  /** Default 900 KiB, under the broker's 1 MiB default message.max.bytes. */
  readonly maxRequestBytes?: number;
  /** Default 10 000. */
  readonly maxBufferedMessages?: number;
  /**
   * How many caller-given mutation ids the producer remembers the event time of (LRU), so that a
   * retry of one reuses its first time instead of a later one (which could undo a removal made in
   * between). Default 100 000; 0 turns it off.
   */
  readonly rememberedMutationIds?: number;
}

/** Times the records of a partition left out of an acknowledgement are sent again. */
const UNACKED_RESENDS = 3;

export function createEdgeProducer(opts: EdgeProducerOptions): EdgeProducer {
  const clock = opts.clock ?? systemClock;
  const nextEventTime = createEventClock(clock);
  const newMutationId = opts.newMutationId ?? randomUUID;
  const remembered = opts.rememberedMutationIds ?? 100_000;
  // Only ids the caller named can be retried: a generated one is first seen in the answer, which carries the time too.
  const timeOfMutation = remembered > 0 ? new LRUCache<string, bigint>({ max: remembered }) : undefined;
  const topic = topicName(opts.config.topics.prefix, 'edge-mutations');
  const subject = subjectFor(topic, knownSchemas.EdgeMutation);
  // The partition each message went to, as the default partitioner chose it (the answer names offsets per partition).
  const partitionOf = new WeakMap<ProducedRecord, number>();
  const producer: KafkaProducer = opts.kafka.producer({ onPartitioned: (record, partition) => partitionOf.set(record, partition) });
  let connected: Promise<void> | undefined;
  let closed: Promise<void> | undefined;

  const send = async (messages: readonly OutgoingMessage[]): Promise<RecordCoordinates[]> => {
    connected ??= producer.connect().catch((e: unknown) => {
      connected = undefined; // the next batch tries again
      throw e;
    });
    await connected;
    const coordinates: RecordCoordinates[] = new Array(messages.length);
    let pending = messages.map((m, i) => ({ i, message: { key: m.key, value: m.value } as ProducedRecord }));
    // kafkajs resolves a send without the partitions whose leader moved to a broker that had
    // already answered for this send (it never re-sends them): those records are sent again,
    // as a new message each (the partitioner records it), a few times before giving up.
    for (let attempt = 1; pending.length > 0; attempt++) {
      const metadata = await producer.send({ topic, messages: pending.map((p) => p.message) });
      const acked = new Set(metadata.filter((m) => m.topicName === topic && m.baseOffset !== undefined).map((m) => m.partition));
      const partitionOfPending = (p: (typeof pending)[number]) => partitionOf.get(p.message) ?? -1;
      const missing = pending.filter((p) => !acked.has(partitionOfPending(p)));
      if (missing.length > 0 && attempt >= UNACKED_RESENDS + 1) recordCoordinates(topic, missing.map(partitionOfPending), metadata); // throws naming the partition
      const done = pending.filter((p) => acked.has(partitionOfPending(p)));
      recordCoordinates(topic, done.map(partitionOfPending), metadata).forEach((c, j) => (coordinates[done[j]!.i] = c));
      pending = missing.map((p) => ({ i: p.i, message: { key: p.message.key, value: p.message.value } as ProducedRecord }));
    }
    return coordinates;
  };
  const buffer = createSendBuffer<RecordCoordinates>({
    send,
    clock,
    lingerMs: opts.lingerMs ?? 0,
    maxBatchMessages: opts.maxBatchMessages ?? 500,
    maxRequestBytes: opts.maxRequestBytes ?? 900 * 1024,
    maxBufferedMessages: opts.maxBufferedMessages ?? 10_000,
  });

  /** The writer schema's synchronous encoder, once the registry lookup resolved (a failed lookup is asked again). */
  let encodeNow: ((value: unknown) => Buffer) | undefined;
  let encoderLookup: Promise<(value: unknown) => Buffer> | undefined;
  const lookUpEncoder = (): Promise<(value: unknown) => Buffer> => {
    encoderLookup ??= opts.serde.encoder(subject).then(
      (encode) => (encodeNow = encode),
      (e: unknown) => {
        encoderLookup = undefined;
        throw e;
      },
    );
    return encoderLookup;
  };
  const encodeFailed = (mutation: EdgeMutation, e: unknown): ProducerError =>
    new ProducerError('ENCODE_FAILED', `encoding ${mutation.mutation_id} failed: ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
      retriable: (e as { retriable?: unknown }).retriable === true,
    });
  /** Encodes now when the schema is known (the usual case), else once the lookup resolves, keeping call order. */
  const encode = (mutation: EdgeMutation): Buffer | Promise<Buffer> => {
    if (encodeNow === undefined) {
      return lookUpEncoder()
        .then((encodeWith) => encodeWith(mutation))
        .catch((e: unknown) => {
          throw encodeFailed(mutation, e);
        });
    }
    try {
      return encodeNow(mutation);
    } catch (e) {
      throw encodeFailed(mutation, e);
    }
  };

  const submit = async (fields: Omit<EdgeMutation, 'mutation_id' | 'event_time'>, common: CommonArgs): Promise<SentMutation> => {
    if (closed) throw new ProducerError('CLOSED', 'the producer is closed');
    const given = common.mutationId;
    const eventTime = common.eventTime ?? (given === undefined ? undefined : timeOfMutation?.get(given)) ?? nextEventTime();
    const mutation = buildMutation({ ...fields, mutation_id: given ?? newMutationId(), event_time: eventTime }, opts.config, clock.nowMicros());
    if (given !== undefined) timeOfMutation?.set(given, mutation.event_time);
    const at = await buffer.add(mutation.src, encode(mutation));
    if (at === undefined) throw new ProducerError('SEND_FAILED', `Kafka acknowledged ${mutation.mutation_id} without its offset`);
    return { mutationId: mutation.mutation_id, eventTime: mutation.event_time, ...at };
  };
  const edge = (op: EdgeOp, a: EdgeArgs, extra: { properties?: Properties; property_keys?: readonly string[] } = {}) =>
    submit({ op, edge_type: a.type, src: a.src, dst: a.dst, properties: extra.properties ?? {}, property_keys: extra.property_keys ?? [] }, a);
  // avsc writes bytes from a Buffer only; absent fields take the schema's null default.
  const edgeValue = (op: EdgeOp, a: EdgeValueArgs, properties: Properties = {}) =>
    submit(
      {
        op,
        edge_type: a.type,
        src: a.src,
        dst: a.dst,
        properties,
        property_keys: [],
        ...(a.edgeTime === undefined ? {} : { edge_time: a.edgeTime }),
        ...(a.data === undefined ? {} : { data: Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength) }),
      },
      a,
    );

  return {
    addEdge: (a) => edgeValue(EdgeOp.ADD_EDGE, a, a.properties ?? {}),
    removeEdge: (a) => edge(EdgeOp.REMOVE_EDGE, a),
    hideEdge: (a) => edgeValue(EdgeOp.HIDE_EDGE, a),
    unhideEdge: (a) => edgeValue(EdgeOp.UNHIDE_EDGE, a),
    setProperties: (a) => edge(EdgeOp.SET_PROPERTIES, a, { properties: a.properties }),
    removeProperties: (a) => edge(EdgeOp.REMOVE_PROPERTIES, a, { property_keys: a.keys }),
    removeNode: (a) => submit({ op: EdgeOp.REMOVE_NODE, edge_type: '', src: a.vertex, dst: '', properties: {}, property_keys: [] }, a),
    flush: () => buffer.flush(),
    close() {
      closed ??= (async () => {
        try {
          await buffer.flush();
        } finally {
          if (connected) await producer.disconnect();
        }
      })();
      return closed;
    },
  };
}
