import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ConsumerCrash, KafkaPort } from '../../kafka/index.ts';
import { createShardOwnership } from './createShardOwnership.ts';
import { fakeKafkaPort } from '../testing/fakeKafka.ts';
import { silentLogger } from '../testing/silentLogger.ts';

/**
 * The parts of the consumer contract (kafkajs's, through the port) the ownership relies on: run()
 * returns once the first start ends, even when that start crashed; a crash
 * drops the group (pause() then throws) and a restart builds a new, unpaused
 * one that announces itself with GROUP_JOIN.
 */
function fakeKafka(opts: { firstStartCrashes: boolean }) {
  const emitter = new EventEmitter();
  let group: { paused: Set<string> } | undefined;
  const groups: { paused: Set<string> }[] = [];
  let restarted: Promise<void> = Promise.resolve();
  const join = (partitions: number[]) => {
    group = { paused: new Set() };
    groups.push(group);
    emitter.emit('join', { marks: partitions });
  };
  const consumer = {
    onGroupJoin: (listener: (assignment: Record<string, number[]>) => void) => void emitter.on('join', listener),
    onRebalancing: (listener: () => void) => void emitter.on('rebalancing', listener),
    onCrash: (listener: (crash: ConsumerCrash) => void) => void emitter.on('crash', listener),
    run: async () => {
      if (!opts.firstStartCrashes) return join([0, 2]);
      emitter.emit('crash', { error: new Error('The coordinator is not available'), restart: true });
      restarted = new Promise((resolve) => setTimeout(() => resolve(join([1])), 5));
    },
    pause: (topics: { topic: string }[]) => {
      if (group === undefined) throw new Error('Consumer group was not initialized, consumer#run must be called first');
      for (const t of topics) group.paused.add(t.topic);
    },
  };
  const kafka = fakeKafkaPort({
    admin: { fetchTopicOffsets: async () => [0, 1, 2, 3].map((partition) => ({ partition, low: '0', high: '0' })) },
    consumer: () => consumer,
  });
  return { kafka, groups, restarted: () => restarted };
}

const options = (kafka: KafkaPort) => ({ kafka, groupId: 'g', topic: 'marks', markPartitions: ['s0', 's1', 's2', 's3', 's4'], logger: silentLogger, sessionTimeoutMs: 10_000 });

describe('createShardOwnership', () => {
  it('owns the mark partitions whose Kafka partition the group assigns, with the topic paused', async () => {
    const fake = fakeKafka({ firstStartCrashes: false });
    const ownership = createShardOwnership(options(fake.kafka));
    await ownership.start();
    expect(['s0', 's1', 's2', 's3', 's4'].filter((p) => ownership.owns(p))).toEqual(['s0', 's2', 's4']);
    expect(fake.groups.map((g) => [...g.paused])).toEqual([['marks']]);
    await ownership.stop();
    expect(ownership.owns('s0')).toBe(false);
  });

  it('survives a first join that crashes before run() returns: starts, owns nothing, then pauses and owns after the restart', async () => {
    const fake = fakeKafka({ firstStartCrashes: true });
    const ownership = createShardOwnership(options(fake.kafka));
    await ownership.start();
    expect(ownership.owns('s1')).toBe(false);
    await fake.restarted();
    expect(['s0', 's1', 's2', 's3', 's4'].filter((p) => ownership.owns(p))).toEqual(['s1']);
    expect(fake.groups.map((g) => [...g.paused])).toEqual([['marks']]);
    await ownership.stop();
  });
});
