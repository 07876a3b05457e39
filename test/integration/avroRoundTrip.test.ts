import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type { ConsumedRecord } from '../../streams/kafka/index.ts';
import { kafkajsPort } from '../../streams/kafka/kafkajs/index.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { knownSchema, knownSchemas, type AvscRecord, type EdgeMutation, type KnownSchema } from '../../schemas/index.ts';
import {
  createAvroSerde,
  DecodeError,
  encodeWireFrame,
  registerSchemas,
  SchemaRegistrationError,
  subjectFor,
  type AvroSerde,
} from '../../streams/serde/index.ts';
import { closedPort } from '../support/closedPort.ts';
import { consumeMessages } from '../support/consumeMessages.ts';
import { createTopics } from '../support/createTopics.ts';
import { stackEndpoints } from '../support/stack.ts';
import { uniqueName } from '../support/uniqueName.ts';

// Real Kafka + real schema registry (Apicurio ccompat or Confluent); nothing here is faked.

const mutation: EdgeMutation = {
  mutation_id: uniqueName('mut'),
  op: 'ADD_EDGE',
  edge_type: 'follows',
  src: 'alice',
  dst: 'bob',
  event_time: 1_700_000_000_123_456n,
  properties: {
    muted: null,
    close_friend: true,
    weight: 9_007_199_254_740_993n, // above 2^53: only exact as a bigint
    score: 0.25,
    status: 'ACTIVE',
    blob: Buffer.from([0xde, 0xad, 0xbe, 0xef]),
  },
  property_keys: ['stale'],
  edge_time: null,
  data: null,
};

/** The current EdgeMutation (v2), the base of the evolution tests below. */
const v1 = knownSchemas.EdgeMutation;
/** EdgeMutation plus one field; with a default it is BACKWARD compatible, without it is not. */
function edgeMutationV2(withDefault: boolean) {
  const avsc: AvscRecord = {
    ...v1.avsc,
    fields: [...v1.avsc.fields, { name: 'tenant', type: 'string', doc: 'Owning tenant.', ...(withDefault ? { default: 'default' } : {}) }],
  };
  // The next version number: the serde caches readers by name and version.
  return knownSchema<EdgeMutation & { readonly tenant: string }>({ avsc, version: v1.version + 1, subjectSuffix: 'value' });
}

/** The decode failure a promise rejects with (fails the test if it resolves or throws something else). */
async function decodeErrorOf(promise: Promise<unknown>): Promise<DecodeError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a DecodeError, decoded ${String(outcome.value)}`);
  if (!DecodeError.is(outcome.error)) throw outcome.error;
  return outcome.error;
}

describe('Avro over real Kafka and schema registry', () => {
  let kafka: Kafka;
  let registryUrl: string;
  let registry: SchemaRegistry;
  let serde: AvroSerde;

  async function produce(topic: string, messages: { key: string; value: Buffer }[]): Promise<void> {
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages });
    } finally {
      await producer.disconnect();
    }
  }

  /** Registers one topic's schema and returns its id. */
  async function registerOne(topic: string, schema: KnownSchema<unknown>): Promise<number> {
    const [registered] = await registerSchemas(registry, { [topic]: schema });
    if (!registered) throw new Error(`registerSchemas returned nothing for ${topic}`);
    return registered.schemaId;
  }

  async function subjectVersions(subject: string): Promise<unknown> {
    const res = await fetch(`${registryUrl}/subjects/${encodeURIComponent(subject)}/versions`, {
      headers: { Accept: 'application/vnd.schemaregistry.v1+json' },
    });
    return res.json();
  }

  beforeAll(() => {
    const stack = stackEndpoints();
    registryUrl = stack.schemaRegistryUrl;
    kafka = new Kafka({ clientId: 'it-avro-round-trip', brokers: [...stack.kafkaBrokers], logLevel: logLevel.NOTHING });
    registry = new SchemaRegistry({ host: registryUrl });
    serde = createAvroSerde({ registry });
  });

  it('registers EdgeMutation v1 under <topic>-value; registering again returns the same id and adds no version', async () => {
    const topic = uniqueName('edgestream.it.avro-register');
    const first = await registerSchemas(registry, { [topic]: v1 });
    // A fresh client, so the second answer comes from the registry, not the client's cache.
    const again = await registerSchemas(new SchemaRegistry({ host: registryUrl }), { [topic]: v1 });

    expect(first).toEqual([{ topic, subject: `${topic}-value`, schemaId: expect.any(Number) }]);
    expect(again).toEqual(first);
    expect(await subjectVersions(`${topic}-value`)).toEqual([1]);
  });

  it('registers over a subject created by another client (Apicurio answers GET /config with its global rule)', async () => {
    const topic = uniqueName('edgestream.it.avro-foreign-subject');
    const subject = `${topic}-value`;
    // Registered straight through the ccompat API, as a Java serde would: no subject-level config is set.
    const res = await fetch(`${registryUrl}/subjects/${encodeURIComponent(subject)}/versions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ schema: JSON.stringify(v1.avsc) }),
    });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: number };

    expect(await registerOne(topic, v1)).toBe(id);
    expect(await subjectVersions(subject)).toEqual([1]);
  });

  describe('messages consumed from Kafka', () => {
    const byKey = new Map<string, ConsumedRecord>();
    let sent: Buffer;
    let schemaId: number;

    beforeAll(async () => {
      const topic = uniqueName('edgestream.it.avro-round-trip');
      await createTopics(kafkajsPort(kafka), [topic]);
      schemaId = await registerOne(topic, v1);
      sent = await serde.encode(subjectFor(topic, v1), mutation);
      await produce(topic, [
        { key: 'good', value: sent },
        // A valid header and body, but an id no registry has handed out.
        { key: 'unknown-id', value: encodeWireFrame(0x7fffffff, sent.subarray(5)) },
        { key: 'bad-magic', value: Buffer.from(JSON.stringify({ src: 'alice' })) },
        { key: 'truncated', value: sent.subarray(0, sent.length - 6) }, // cuts into 'stale' (then the null edge_time and data)
      ]);
      for (const message of await consumeMessages(kafkajsPort(kafka), topic, 4)) {
        byKey.set(String(message.key), message);
      }
    });

    const valueOf = (key: string): Buffer => {
      const value = byKey.get(key)?.value;
      if (!value) throw new Error(`no message with key ${key} was consumed`);
      return value;
    };

    it('decodes the EdgeMutation, with every property union branch, to exactly what was sent', async () => {
      expect(valueOf('good').equals(sent)).toBe(true);
      const decoded = await serde.decode(valueOf('good'), v1);
      expect(decoded).toEqual({ schemaId, schemaName: 'io.edgestream.EdgeMutation', value: mutation });
    });

    it('rejects an unknown schema id with UNKNOWN_SCHEMA_ID (registry 404), not retriable', async () => {
      const e = await decodeErrorOf(serde.decode(valueOf('unknown-id'), v1));
      expect(e).toMatchObject({ code: 'UNKNOWN_SCHEMA_ID', retriable: false, schemaId: 0x7fffffff });
      expect(e.cause).toMatchObject({ status: 404 });
    });

    it('rejects a value that is not wire format with BAD_MAGIC_BYTE', async () => {
      const e = await decodeErrorOf(serde.decode(valueOf('bad-magic'), v1));
      expect(e).toMatchObject({ code: 'BAD_MAGIC_BYTE', retriable: false });
    });

    it('rejects a truncated Avro body with BAD_LENGTH naming the string it cuts', async () => {
      const e = await decodeErrorOf(serde.decode(valueOf('truncated'), v1));
      expect(e).toMatchObject({ code: 'BAD_LENGTH', retriable: false, schemaId });
      expect(e.message).toContain('at property_keys[]: declares a length of 5 bytes, but 2 remain');
    });
  });

  it('reports a registry that is down as REGISTRY_UNAVAILABLE, retriable (never a bad message)', async () => {
    const down = createAvroSerde({ registry: new SchemaRegistry({ host: `http://127.0.0.1:${await closedPort()}` }) });
    const e = await decodeErrorOf(down.decode(encodeWireFrame(1, Buffer.alloc(0)), v1));
    expect(e).toMatchObject({ code: 'REGISTRY_UNAVAILABLE', retriable: true });
  });

  it('has the registry reject a BACKWARD-incompatible v2 with INCOMPATIBLE_SCHEMA naming the subject', async () => {
    const topic = uniqueName('edgestream.it.avro-incompatible');
    await registerSchemas(registry, { [topic]: v1 });

    const error: unknown = await registerSchemas(registry, { [topic]: edgeMutationV2(false) }).catch((e: unknown) => e);

    expect(SchemaRegistrationError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INCOMPATIBLE_SCHEMA', retriable: false, subject: `${topic}-value` });
    expect((error as Error).message).toMatch(/not BACKWARD compatible/);
    expect((error as Error).cause).toMatchObject({ status: 409 });
    expect(await subjectVersions(`${topic}-value`)).toEqual([1]);
  });

  it('resolves across versions: a compatible v2 registers, v1 readers read v2 bytes and v2 readers read v1 bytes', async () => {
    const topic = uniqueName('edgestream.it.avro-evolution');
    const v2 = edgeMutationV2(true);
    await createTopics(kafkajsPort(kafka), [topic]);
    const v1Id = await registerOne(topic, v1);
    const v2Id = await registerOne(topic, v2);
    expect(v2Id).not.toBe(v1Id);
    expect(await subjectVersions(`${topic}-value`)).toEqual([1, 2]);

    await produce(topic, [
      { key: 'v1', value: await serde.encode(v1Id, mutation) },
      { key: 'v2', value: await serde.encode(subjectFor(topic, v2), { ...mutation, tenant: 'acme' }) },
    ]);
    const consumed = new Map((await consumeMessages(kafkajsPort(kafka), topic, 2)).map((m) => [String(m.key), m.value as Buffer]));

    const v2ReadByV1 = await serde.decode(consumed.get('v2') as Buffer, v1);
    expect(v2ReadByV1).toEqual({ schemaId: v2Id, schemaName: 'io.edgestream.EdgeMutation', value: mutation });
    const v1ReadByV2 = await serde.decode(consumed.get('v1') as Buffer, v2);
    expect(v1ReadByV2.value).toEqual({ ...mutation, tenant: 'default' });
  });
});
