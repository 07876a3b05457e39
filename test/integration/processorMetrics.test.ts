import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry, createReadMetrics, registerSplitDirectoryMetrics, startMetricsServer } from '../../metrics/index.ts';
import { createEdgeReader } from '../../reads/index.ts';
import { createServingPartitions } from '../../reads/split/createServingPartitions.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { closedPort } from '../support/closedPort.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { killAll, startProcessorProcess, type ProcessorProcess } from '../support/processorProcess.ts';
import { scrapePrometheus, type PromScrape } from '../support/prometheusText.ts';

/**
 * `edgestream run … --metrics-port <p>` as a real child process on the real stack:
 * its /metrics is scraped over HTTP before and after events are published, and the
 * series must move: the fan-out's events counter grows by what was published, the
 * polled consumer lag of a held-back group (the cascade waits `cascadeSettleMs` on a
 * REMOVE_NODE) rises and returns to 0, and an undecodable record appears in the DLQ
 * counter under its reason, and the recounter counts its rounds. Plus the flag's errors:
 * a bad value and a taken port.
 */
describe('processor metrics over HTTP (edgestream run --metrics-port)', () => {
  let env: EdgestreamEnv;
  let producer: EdgeProducer;
  let tmp: string;
  let configFile: string;
  const processes = new Set<ProcessorProcess>();
  const start = (args: readonly string[], log: string) =>
    startProcessorProcess({ configFile, stages: ['fanout', 'repair', 'cascade', 'recount'], args, env: { ...endpointsToEnv(env.endpoints), LOG_LEVEL: 'info' }, logPath: path.join(tmp, log), registry: processes });

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'metrics', partitions: 2, runtime: { lagPollIntervalMs: 200, cascadeSettleMs: 6_500 } });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-metrics-'));
    configFile = path.join(tmp, 'edgestream.config.json');
    fs.writeFileSync(configFile, JSON.stringify(env.configInput, null, 2));
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
  });

  afterAll(async () => {
    await killAll(processes);
    await producer?.close().catch(() => {});
    await env?.teardown();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses a --metrics-port that is not a port, naming the flag', async () => {
    const p = start(['--metrics-port', '70000'], 'bad-port.log');
    const exit = await p.exited;
    expect(exit.code).not.toBe(0);
    expect(p.tail()).toMatch(/--metrics-port must be an integer between 1 and 65535, got "70000"/);
  });

  it('fails at start, naming --metrics-port, when the port is taken', { timeout: 60_000 }, async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const p = start(['--metrics-port', String(port)], 'taken-port.log');
      const exit = await p.exited;
      expect(exit.code).not.toBe(0);
      expect(p.tail()).toMatch(new RegExp(`--metrics-port ${port}: .*(EADDRINUSE|in use)`));
    } finally {
      holder.close();
    }
  });

  it('serves series that move with the stream: events, lag back to 0, DLQ by reason, caches, Bloom checks', { timeout: 180_000 }, async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/metrics`;
    const processor = start(['--metrics-port', String(port)], 'processor.log');
    const groups = edgePipelineGroups(env.config);
    const fanOut = groups.find((g) => g.stage === 'fanout')!;
    const cascade = groups.find((g) => g.stage === 'cascade')!;

    /** Scrapes until `until` holds (or throws after `timeoutMs` with the last scrape and the process log). */
    const scrapeUntil = async (what: string, until: (s: PromScrape) => boolean, timeoutMs = 60_000): Promise<PromScrape> => {
      const deadline = Date.now() + timeoutMs;
      let last: PromScrape | undefined;
      let error: unknown;
      for (;;) {
        if (!processor.alive()) throw new Error(`processor exited while waiting for ${what}:\n${processor.tail()}`);
        try {
          last = await scrapePrometheus(url);
          if (until(last)) return last;
        } catch (e) {
          error = e;
        }
        if (Date.now() > deadline) {
          const shown = last?.samples.filter((s) => s.name.startsWith('edgestream_')).map((s) => `${s.name}${JSON.stringify(s.labels)} ${s.value}`).join('\n');
          throw new Error(`timed out waiting for ${what}; last error ${String(error)}; last scrape:\n${shown}\nlog:\n${processor.tail()}`);
        }
        await new Promise((r) => setTimeout(r, 150));
      }
    };
    const lagOf = (s: PromScrape, group: string) => s.series('edgestream_consumer_lag', { group });

    // Up, and the lag poller has seen every partition of its groups.
    const before = await scrapeUntil('the first lag poll', (s) => lagOf(s, fanOut.group).length === 2 && lagOf(s, cascade.group).length === 2);
    expect(before.type('edgestream_events_total')).toBe('counter');
    expect(before.type('edgestream_consumer_lag')).toBe('gauge');
    expect(before.type('edgestream_read_duration_seconds')).toBeUndefined(); // a processor serves no reads
    expect(before.sum('process_cpu_seconds_total')).toBeGreaterThan(0);
    const doneBefore = before.sum('edgestream_events_total', { stage: 'fanout', outcome: 'done' });

    // 200 follows and one node removal: the cascade holds the REMOVE_NODE uncommitted for cascadeSettleMs.
    const adds = Array.from({ length: 200 }, (_, i) => producer.addEdge({ type: 'follows', src: `u${i % 20}`, dst: `v${i}` }));
    await Promise.all(adds);
    await producer.removeNode({ vertex: 'u0' });
    await producer.flush();

    const held = await scrapeUntil('cascade lag > 0 while the REMOVE_NODE settles', (s) => lagOf(s, cascade.group).some((p) => p.value > 0), 30_000);
    expect(held.sum('edgestream_consumer_lag', { group: cascade.group })).toBeGreaterThan(0);

    const after = await scrapeUntil(
      'the fan-out to count the events and every lag to return to 0',
      (s) =>
        s.sum('edgestream_events_total', { stage: 'fanout', outcome: 'done' }) >= doneBefore + 201 &&
        lagOf(s, fanOut.group).every((p) => p.value === 0) &&
        lagOf(s, cascade.group).every((p) => p.value === 0) &&
        s.sum('edgestream_events_total', { stage: 'cascade' }) >= 201,
      60_000,
    );
    expect(lagOf(after, fanOut.group).map((p) => p.labels['partition']).sort()).toEqual(['0', '1']);
    expect(after.sum('edgestream_dlq_records_total')).toBe(0);
    expect(after.sum('edgestream_store_mutations_total', { stage: 'fanout' })).toBeGreaterThan(0);
    // Chunks carry the records: at least one chunk was committed, and never more chunks than records.
    const chunks = after.sum('edgestream_chunks_total', { stage: 'fanout' });
    expect(chunks).toBeGreaterThan(0);
    expect(chunks).toBeLessThanOrEqual(after.sum('edgestream_events_total', { stage: 'fanout' }));
    // Every link addition asked the link cache; every link op read node tombstones through the tombstone cache.
    expect(after.sum('edgestream_cache_lookups_total', { cache: 'link' })).toBeGreaterThanOrEqual(400);
    expect(after.sum('edgestream_cache_lookups_total', { cache: 'tombstone' })).toBeGreaterThan(0);
    // Every mutation of a splittable namespace asked the split directory's Bloom filter; nothing is split.
    expect(after.sum('edgestream_split_directory_checks_total')).toBeGreaterThanOrEqual(400);
    expect(after.sum('edgestream_split_directory_positives_total')).toBe(0);
    expect(after.series('edgestream_split_partitions').map((s) => s.labels['status']).sort()).toEqual(['COMPLETED', 'FAILED', 'PLANNED', 'PLANNING', 'SPLIT', 'SPLITTING']);
    expect(after.sum('edgestream_split_partitions')).toBe(0);
    expect(after.sum('edgestream_repair_queue_depth')).toBe(0);
    // The follows marked degrees dirty; the recounter (every 250 ms here) recounts them.
    await scrapeUntil('the recounter to recount the marked degrees', (s) => s.sum('edgestream_recount_targets_total', { outcome: 'recounted' }) > 0);

    // A record that is not Avro: dead-lettered by the fan-out with reason "undecodable".
    const raw = env.kafka.producer();
    await raw.connect();
    await raw.send({ topic: env.topics.input, messages: [{ key: 'junk', value: Buffer.from('not avro') }] });
    await raw.disconnect();
    const dead = await scrapeUntil('the bad record in the DLQ counter', (s) => s.sum('edgestream_dlq_records_total', { stage: 'fanout', reason: 'undecodable' }) === 1);
    expect(dead.sum('edgestream_events_total', { stage: 'fanout', outcome: 'dead_letter' })).toBe(1);
    expect(dead.sum('edgestream_dlq_records_total', { stage: 'fanout' })).toBe(1);

    const t0 = performance.now();
    const body = await (await fetch(url)).text();
    console.log(
      `metrics: cascade lag held at ${held.sum('edgestream_consumer_lag', { group: cascade.group })} while settling; fan-out done ${after.sum('edgestream_events_total', { stage: 'fanout', outcome: 'done' })}, ` +
        `link cache ${after.sum('edgestream_cache_hits_total', { cache: 'link' })}/${after.sum('edgestream_cache_lookups_total', { cache: 'link' })}, ` +
        `tombstone cache ${after.sum('edgestream_cache_hits_total', { cache: 'tombstone' })}/${after.sum('edgestream_cache_lookups_total', { cache: 'tombstone' })}, ` +
        `Bloom checks ${after.sum('edgestream_split_directory_checks_total')}; a scrape: ${body.length} bytes in ${(performance.now() - t0).toFixed(1)} ms`,
    );
    const exit = await processor.kill('SIGTERM');
    expect(exit.code).toBe(0);
    await expect(fetch(url)).rejects.toThrow(); // the exposition closed with the process
  });

  it('exposes a split-aware reader\'s latency, queries per call, property cache and Bloom checks over HTTP', { timeout: 60_000 }, async () => {
    const registry = createMetricsRegistry();
    const serving = createServingPartitions(env.store, env.config);
    await serving.start();
    const reads = createReadMetrics(registry);
    registerSplitDirectoryMetrics(registry, serving.directory);
    const server = await startMetricsServer({ registry, port: 0, host: '127.0.0.1' });
    try {
      const reader = createEdgeReader({ partitions: serving.partitions, config: env.config, observer: reads.observer });
      await reader.edge('follows', 'a', 'b');
      await reader.out('follows', 'a', { limit: 10, order: 'peer' });
      await reader.props('follows', 'a', 'b', ['since']);
      await reader.props('follows', 'a', 'b', ['since']);
      await expect(reader.count('follows', 'a', 'sideways' as never)).rejects.toThrow(/direction/);
      const s = await scrapePrometheus(`http://127.0.0.1:${server.port}/metrics`);
      expect(s.sum('edgestream_read_duration_seconds_count', { operation: 'edge', outcome: 'ok' })).toBe(1);
      expect(s.sum('edgestream_read_duration_seconds_count', { operation: 'count', outcome: 'invalid' })).toBe(1);
      expect(s.sum('edgestream_read_duration_seconds_sum', { operation: 'edge' })).toBeGreaterThan(0); // a real Cassandra round trip
      expect(s.sum('edgestream_read_queries_sum', { operation: 'out' })).toBe(1);
      expect(s.sum('edgestream_cache_lookups_total', { cache: 'property' })).toBe(2);
      expect(s.sum('edgestream_cache_hits_total', { cache: 'property' })).toBe(1);
      expect(s.sum('edgestream_split_directory_checks_total')).toBe(2); // edge and out read splittable link namespaces; props never split
    } finally {
      await server.close();
      serving.stop();
    }
  });
});
