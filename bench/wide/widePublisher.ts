import type { KafkaPort } from '../../streams/kafka/index.ts';
import type { OnWidePartition } from '../../reads/index.ts';
import { knownSchemas, type WidePartitionDetected } from '../../schemas/index.ts';
import { subjectFor, type AvroSerde } from '../../streams/serde/index.ts';
import { topicName } from '../../streams/topics/index.ts';

/** One wide-partition event the read counters raised, and when it reached Kafka. */
export interface Detection {
  readonly namespace: string;
  readonly partitionId: string;
  /** The event's detected_at, µs. */
  readonly detectedAtMicros: number;
  readonly rowsRead: number;
  readonly bytesRead: number;
  /** ms since the epoch when the publish was acknowledged (acks=all); undefined while in flight or failed. */
  publishedAtMs?: number;
  error?: string;
}

/**
 * The sink of the read counters' `onWide`: every WidePartitionDetected is
 * encoded with the registered schema and published to
 * `<prefix>wide-partitions`, keyed `namespace ␀ partition id` (what the
 * planner consumes). `onWide` must not block or throw (the counters call it
 * inside a read), so the publish runs in the background; `flush` waits for
 * every publish and throws the first failure.
 */
export async function createWidePublisher(o: { kafka: KafkaPort; serde: AvroSerde; prefix: string }) {
  const topic = topicName(o.prefix, 'wide-partitions');
  const subject = subjectFor(topic, knownSchemas.WidePartitionDetected);
  const producer = o.kafka.producer();
  await producer.connect();
  const detections: Detection[] = [];
  const inFlight: Promise<void>[] = [];

  const publish = async (event: WidePartitionDetected, d: Detection): Promise<void> => {
    try {
      const value = await o.serde.encode(subject, event);
      await producer.send({ topic, messages: [{ key: `${event.namespace}\u0000${event.partition_id}`, value }] });
      d.publishedAtMs = Date.now();
    } catch (e) {
      d.error = e instanceof Error ? e.message : String(e);
    }
  };
  const onWide: OnWidePartition = (event) => {
    const d: Detection = {
      namespace: event.namespace,
      partitionId: event.partition_id,
      detectedAtMicros: Number(event.detected_at),
      rowsRead: Number(event.rows_read),
      bytesRead: Number(event.bytes_read),
    };
    detections.push(d);
    inFlight.push(publish(event, d));
  };
  return {
    topic,
    onWide,
    detections,
    async flush(): Promise<void> {
      await Promise.all(inFlight);
      const failed = detections.find((d) => d.error !== undefined);
      if (failed) throw new Error(`publishing WidePartitionDetected(${failed.namespace}, ${failed.partitionId}) failed: ${failed.error}`);
    },
    close: () => producer.disconnect(),
  };
}
