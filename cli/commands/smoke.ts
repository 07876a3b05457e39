import { randomUUID } from 'node:crypto';
import type { KafkaConsumer } from '../../streams/kafka/index.ts';
import { knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { createCassandraStore } from '../../sinks/cassandra/index.ts';
import { createAvroSerde, registerSchemas } from '../../streams/serde/index.ts';
import { commandStack } from '../commandStack.ts';
import { connectClients } from '../connectClients.ts';
import { loadConfig } from '../loadConfig.ts';
import { topicDurability } from '../../streams/topics/index.ts';

const say = (line: string) => console.log(line);

/**
 * `edgestream smoke`: proves a stack works end to end. Registers the EdgeMutation
 * schema, creates a topic and a namespace, publishes one Avro event, consumes and
 * decodes it, writes it to Cassandra and reads it back.
 */
export async function smokeCommand(opts: { keepStack: boolean; config?: string | undefined }): Promise<void> {
  const t0 = Date.now();
  // The config only says where the cluster is (its `cluster` section) and the topic's durability.
  const { config } = loadConfig(opts.config);
  const stack = await commandStack({ keepStack: opts.keepStack, cluster: config.cluster });
  const { kafka, registry } = await connectClients(stack.endpoints, 'edgestream-smoke');
  const runId = randomUUID().slice(0, 8);
  const topic = `edgestream.smoke.${runId}`;
  const keyspace = 'edgestream_smoke';
  const admin = kafka.admin();
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: `edgestream-smoke-${runId}` });
  const store = await createCassandraStore({
    contactPoints: [...stack.endpoints.cassandraContactPoints],
    localDataCenter: stack.endpoints.cassandraLocalDc,
    ...stack.endpoints.security?.cassandra,
    keyspace,
    replication: config.cassandra.replication,
    consistency: config.cassandra.consistency,
    namespaces: [{ name: 'smoke_links', chunking: false }],
  });
  try {
    say(`stack: ${stack.endpoints.source} (Kafka ${stack.endpoints.kafkaBrokers.join(',')}, Cassandra ${stack.endpoints.cassandraContactPoints.join(',')})`);
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, ...topicDurability(config) }], waitForLeaders: true });
    say(`created topic ${topic}`);
    const [subject] = await registerSchemas(registry, { [topic]: knownSchemas.EdgeMutation });
    say(`registered ${knownSchemas.EdgeMutation.fullName} as ${subject?.subject} (schema id ${subject?.schemaId})`);
    await store.init();
    say(`created keyspace ${keyspace} with namespace smoke_links`);

    const event: EdgeMutation = {
      mutation_id: randomUUID(),
      op: 'ADD_EDGE',
      edge_type: 'follows',
      src: 'alice',
      dst: 'bob',
      event_time: BigInt(Date.now()) * 1000n,
      properties: { since: 2024n, close_friend: true },
      property_keys: [],
    };
    const serde = createAvroSerde({ registry });
    const bytes = await serde.encode(subject!.subject, event);
    await producer.connect();
    const [meta] = await producer.send({ topic, messages: [{ key: event.src, value: bytes }] });
    say(`published ${event.op} ${event.src} -> ${event.dst} (${bytes.length} bytes) at offset ${meta?.baseOffset}`);

    const decoded = await consumeOne(consumer, topic, (buf) => serde.decode(buf, knownSchemas.EdgeMutation));
    say(`consumed and decoded: ${decoded.value.op} ${decoded.value.src} -> ${decoded.value.dst}, properties ${JSON.stringify(decoded.value.properties, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`);

    const links = store.namespace('smoke_links');
    const key = new TextEncoder().encode(decoded.value.dst);
    await links.put(decoded.value.src, key, new TextEncoder().encode(decoded.value.mutation_id), decoded.value.event_time);
    const cell = await links.get(decoded.value.src, key);
    const ok = cell !== undefined && cell.writeTime === event.event_time && new TextDecoder().decode(cell.value) === event.mutation_id;
    say(`wrote ${keyspace}.smoke_links[${decoded.value.src}][${decoded.value.dst}] USING TIMESTAMP ${event.event_time} and read it back: ${ok ? 'match' : 'MISMATCH'}`);
    if (!ok) throw new Error('smoke: the value read back from Cassandra differs from what was written');
    await consumer.disconnect();
    await admin.deleteTopics({ topics: [topic] });
    say(`smoke passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await Promise.allSettled([consumer.disconnect(), producer.disconnect(), admin.disconnect(), store.close()]);
    await stack.release();
  }
}

async function consumeOne<T>(consumer: KafkaConsumer, topic: string, decode: (b: Buffer) => Promise<T>): Promise<T> {
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`smoke: nothing consumed from ${topic} within 30 s`)), 30_000);
    void consumer.run({
      eachBatch: async ({ batch, resolveOffset }) => {
        const [message] = batch.messages;
        if (!message) return;
        resolveOffset(message.offset);
        clearTimeout(timer);
        if (!message.value) return reject(new Error('smoke: consumed a message with no value'));
        decode(message.value).then(resolve, reject);
      },
    });
  });
}
