import { describe, expect, it } from 'vitest';
import { parseEdgestreamConfig } from '../../../schemas/config/edgestreamConfig.ts';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import type { ConsumerOptions, KafkaPort } from '../../kafka/index.ts';
import type { AvroSerde } from '../../serde/index.ts';
import { fakeKafkaPort } from '../testing/fakeKafka.ts';
import { silentLogger } from '../testing/silentLogger.ts';
import { createTestProcessor, TEST_NAMESPACES, validateTestEvent } from '../testing/testProcessor.ts';
import { createCascadeRunner } from './createCascadeRunner.ts';
import { createProcessorRuntime, createRepairRunner } from './createProcessorRuntime.ts';

/** A port whose consumers record the options they were made with and run no loop. */
function recordingPort(): { kafka: KafkaPort; made: ConsumerOptions[] } {
  const made: ConsumerOptions[] = [];
  const port = fakeKafkaPort({ consumer: () => ({ run: async () => {} }) });
  return { kafka: { ...port, consumer: (o) => (made.push(o), port.consumer(o)) }, made };
}

describe('the input fetch (runtime.inputFetch)', () => {
  const config = parseEdgestreamConfig({ edgeTypes: [{ name: 'follows' }], runtime: { inputFetch: { minBytes: 65_536, maxWaitMs: 250 } } });
  const common = (kafka: KafkaPort) => ({
    kafka,
    serde: {} as AvroSerde,
    store: createMemoryStore({ namespaces: TEST_NAMESPACES }),
    schema: {} as never,
    validate: validateTestEvent,
    config,
    logger: silentLogger,
  });

  it('batches the input runner and the cascade; the repair runner fetches as soon as a record is there', async () => {
    const { kafka, made } = recordingPort();
    const input = createProcessorRuntime({ ...common(kafka), processor: createTestProcessor() });
    const repair = createRepairRunner({ ...common(kafka), processor: createTestProcessor() });
    const cascade = createCascadeRunner({ ...common(kafka), logic: { name: 'cascade', triggers: () => false } as never, upstreamGroupId: input.groupId });
    for (const r of [input, repair, cascade]) await r.start();
    const byGroup = Object.fromEntries(made.map((o) => [o.groupId, { minBytes: o.minBytes, maxWaitTimeMs: o.maxWaitTimeMs }]));
    expect(byGroup[input.groupId]).toEqual({ minBytes: 65_536, maxWaitTimeMs: 250 });
    expect(byGroup[cascade.groupId]).toEqual({ minBytes: 65_536, maxWaitTimeMs: 250 });
    expect(byGroup[repair.groupId]).toEqual({ minBytes: undefined, maxWaitTimeMs: 1_000 }); // its own short wait (repairInitialBackoffMs)
    for (const r of [input, repair, cascade]) await r.stop();
  });
});
