import { EventEmitter } from 'node:events';
import type { Kafka } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { kafkajsPort } from './createKafkajsPort.ts';

/** A kafkajs client stand-in recording how the adapter configures and calls it. */
function recordingKafkajs() {
  const calls: { what: string; args: unknown }[] = [];
  const emitter = new EventEmitter();
  const events = { GROUP_JOIN: 'consumer.group_join', REBALANCING: 'consumer.rebalancing', CRASH: 'consumer.crash' };
  const kafka = {
    producer: (config: { createPartitioner: () => (args: { topic: string; partitionMetadata: unknown[]; message: unknown }) => number }) => {
      calls.push({ what: 'producer', args: config });
      return {
        send: async (args: { messages: unknown[] }) => {
          calls.push({ what: 'send', args });
          const partitioner = config.createPartitioner();
          for (const message of args.messages) partitioner({ topic: 't', partitionMetadata: [0, 1, 2].map((partitionId) => ({ partitionId, leader: 0 })), message });
          return [{ topicName: 't', partition: 0, errorCode: 0, baseOffset: '7' }];
        },
        sendBatch: async (args: unknown) => void calls.push({ what: 'sendBatch', args }),
      };
    },
    consumer: (config: unknown) => {
      calls.push({ what: 'consumer', args: config });
      return {
        events,
        on: (event: string, listener: (e: unknown) => void) => emitter.on(event, listener),
        run: async (args: unknown) => void calls.push({ what: 'run', args }),
      };
    },
    admin: (config: unknown) => {
      calls.push({ what: 'admin', args: config });
      return {
        describeConfigs: async (args: unknown) => {
          calls.push({ what: 'describeConfigs', args });
          return {
            resources: [
              {
                resourceName: 't',
                configEntries: [
                  { configName: 'min.insync.replicas', configValue: '2', configSource: 1 },
                  { configName: 'retention.ms', configValue: '604800000', configSource: 5 },
                ],
              },
            ],
          };
        },
        createTopics: async (args: unknown) => (calls.push({ what: 'createTopics', args }), true),
      };
    },
  } as unknown as Kafka;
  return { kafka, calls, emitter, events };
}

describe('the kafkajs adapter of the Kafka port', () => {
  it('builds every producer idempotent with one request in flight and sends with acks=all, telling the partition of each record', async () => {
    const k = recordingKafkajs();
    const told: [unknown, number][] = [];
    const producer = kafkajsPort(k.kafka).producer({ onPartitioned: (record, partition) => void told.push([record, partition]) });
    const record = { key: 'alice', value: Buffer.from('v') };
    expect(await producer.send({ topic: 't', messages: [record] })).toEqual([{ topicName: 't', partition: 0, errorCode: 0, baseOffset: '7' }]);
    await producer.sendBatch({ topicMessages: [{ topic: 't', messages: [record] }] });
    expect(k.calls.find((c) => c.what === 'producer')?.args).toMatchObject({ idempotent: true, maxInFlightRequests: 1 });
    expect(k.calls.find((c) => c.what === 'send')?.args).toMatchObject({ topic: 't', acks: -1 });
    expect(k.calls.find((c) => c.what === 'sendBatch')?.args).toMatchObject({ acks: -1 });
    // The very record object, and the partition murmur2 gives its key over 3 partitions.
    expect(told).toEqual([[record, kafkajsPort(k.kafka).partitionForKey('alice', 3)]]);
  });

  it('consumes with manual offsets and no topic auto-creation, and passes group joins, rebalances and crashes on', async () => {
    const k = recordingKafkajs();
    const consumer = kafkajsPort(k.kafka).consumer({ groupId: 'g', sessionTimeoutMs: 8_000, maxWaitTimeMs: 500, minBytes: 4_096 });
    const seen: unknown[] = [];
    consumer.onGroupJoin((assignment) => seen.push(['join', assignment]));
    consumer.onRebalancing(() => seen.push(['rebalancing']));
    consumer.onCrash((crash) => seen.push(['crash', crash.error.message, crash.restart]));
    await consumer.run({ eachBatch: async () => {} });
    k.emitter.emit(k.events.REBALANCING, { payload: { groupId: 'g' } });
    k.emitter.emit(k.events.GROUP_JOIN, { payload: { memberAssignment: { t: [0, 2] } } });
    k.emitter.emit(k.events.CRASH, { payload: { error: new Error('boom'), restart: true } });
    expect(k.calls.find((c) => c.what === 'consumer')?.args).toEqual({ groupId: 'g', allowAutoTopicCreation: false, sessionTimeout: 8_000, maxWaitTimeInMs: 500, minBytes: 4_096 });
    expect(k.calls.find((c) => c.what === 'run')?.args).toMatchObject({ autoCommit: false, eachBatchAutoResolve: false });
    expect(seen).toEqual([['rebalancing'], ['join', { t: [0, 2] }], ['crash', 'boom', true]]);
  });

  it("reads topic configs with their override flag and creates topics without kafkajs' leader wait unless asked", async () => {
    const k = recordingKafkajs();
    const admin = kafkajsPort(k.kafka).admin({ retries: 0 });
    expect(await admin.describeTopicConfigs(['t'])).toEqual([
      {
        topic: 't',
        entries: [
          { name: 'min.insync.replicas', value: '2', topicOverride: true },
          { name: 'retention.ms', value: '604800000', topicOverride: false },
        ],
      },
    ]);
    await admin.createTopics({ topics: [{ topic: 't', numPartitions: 3, replicationFactor: 1 }] });
    expect(k.calls.find((c) => c.what === 'admin')?.args).toEqual({ retry: { retries: 0 } });
    expect(k.calls.find((c) => c.what === 'createTopics')?.args).toEqual({ topics: [{ topic: 't', numPartitions: 3, replicationFactor: 1, configEntries: [] }], waitForLeaders: false });
  });
});
