import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdgeReader, createReadCounters, createStorePartitionReader, type EdgeReader, type Neighbour } from '../../reads/index.ts';
import { recordingPartitionReader } from '../../reads/testing/recordingPartitionReader.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { WidePartitionDetected } from '../../schemas/generated/WidePartitionDetected.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import type { EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { publishGraph, type PublishedGraph } from '../support/publishGraph.ts';
import { applyLww, modelKey } from '../support/model/applyLww.ts';
import { REPO_ROOT } from '../support/processorProcess.ts';

const exec = promisify(execFile);

/**
 * The read path on the real stack: events published through the producer SDK,
 * processed by the real write path (fan-out, repair, cascade, recounter) into
 * Cassandra, then read through createEdgeReader over the plain
 * PartitionReader, and through the `edgestream` CLI as a child process.
 */
describe('the read path on Kafka + Cassandra', () => {
  let env: EdgestreamEnv;
  const rand = randomBytes(3).toString('hex');
  const hub = `hub-${rand}`;
  const root = `root-${rand}`;
  const base = BigInt(Date.now() - 3_600_000) * 1000n; // an hour ago, in µs
  let seq = 0;
  const mutation = (op: EdgeMutation['op'], src: string, dst: string, at: bigint, properties: EdgeMutation['properties'] = {}): EdgeMutation => ({
    mutation_id: `${rand}-${++seq}`,
    op,
    edge_type: 'follows',
    src,
    dst,
    event_time: base + at,
    properties,
    property_keys: [],
  });

  /**
   * hub → 3000 peers at distinct times; 400 of them re-added later (their old
   * index entries stay behind), 600 removed (some after a re-add, some that
   * never were re-added); one peer removed before it is re-added. A star for
   * traversal: root → 30 f's, each f → 20 g's (600 second-hop vertices). One
   * edge with properties.
   */
  const events: EdgeMutation[] = [];
  for (let i = 0; i < 3_000; i++) events.push(mutation('ADD_EDGE', hub, `p${i}`, BigInt(i)));
  for (let i = 0; i < 400; i++) events.push(mutation('ADD_EDGE', hub, `p${i * 7}`, 10_000n + BigInt(i)));
  for (let i = 0; i < 600; i++) events.push(mutation('REMOVE_EDGE', hub, `p${i * 5}`, 20_000n + BigInt(i)));
  events.push(mutation('ADD_EDGE', hub, 'p5', 30_000n));
  for (let f = 0; f < 30; f++) {
    events.push(mutation('ADD_EDGE', root, `f${f}-${rand}`, BigInt(f)));
    for (let g = 0; g < 20; g++) events.push(mutation('ADD_EDGE', `f${f}-${rand}`, `g${f}-${g}-${rand}`, BigInt(g)));
  }
  const propsSrc = `ps-${rand}`;
  events.push(mutation('ADD_EDGE', propsSrc, 'pd', 1n, { since: 2020n, weight: 0.75, note: 'hello', muted: false, blob: Buffer.alloc(2_000, 7) }));
  const model = applyLww(events);
  const expectedOut = model.newestFirst.get(modelKey('follows', 'out', hub)) ?? [];

  let graph: PublishedGraph | undefined;
  beforeAll(async () => {
    graph = await publishGraph('readpath', events);
    env = graph.env;
  }, 300_000);

  afterAll(async () => {
    await graph?.close();
  });

  const reader = (options: Partial<Parameters<typeof createEdgeReader>[0]> = {}): EdgeReader =>
    createEdgeReader({ partitions: createStorePartitionReader(env.store), config: env.config, ...options });

  it('cursor pagination returns every live link exactly once, newest first, and counts the logical partitions read', async () => {
    expect(expectedOut.length).toBe(3_000 - 600 + 1);
    const wide: WidePartitionDetected[] = [];
    const counters = createReadCounters({ wide: { ...env.config.wide, thresholdRows: 2_000 }, onWide: (e) => void wide.push(e) });
    const r = reader({ counters });
    const limits = [1, 250, 17, 500, 999];
    const seen: Neighbour[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await r.out('follows', hub, { limit: limits[pages++ % limits.length]!, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items);
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(expectedOut);
    expect(seen[0]).toMatchObject({ peer: 'p5', time: base + 30_000n });

    const byPeer: Neighbour[] = [];
    do {
      const page = await r.out('follows', hub, { limit: 700, order: 'peer', ...(cursor ? { cursor } : {}) });
      byPeer.push(...page.items);
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(byPeer).toEqual([...expectedOut].sort((x, y) => Buffer.compare(Buffer.from(x.peer), Buffer.from(y.peer))));

    expect(await r.in('follows', 'p1', { limit: 10 })).toEqual({ items: [{ peer: hub, time: base + 1n, mutationId: expect.any(String) }] });
    expect(await r.count('follows', hub, 'out')).toBe(BigInt(expectedOut.length));
    expect(await r.edge('follows', hub, 'p10')).toMatchObject({ state: 'REMOVED' });

    // 3400 index entries and 2401 live links read: the hub's partitions crossed 2000 rows, once each (cool-down)
    expect(wide.map((e) => e.namespace).sort()).toEqual(['follows_out', 'follows_out_recent']);
    expect(wide.every((e) => e.partition_id === hub && e.rows_read >= 2_000n && !e.immutable)).toBe(true);
  });

  it('traverse honours the per-hop cap and reports truncation', async () => {
    const r = reader();
    const hops = [{ type: 'follows', direction: 'out' as const }, { type: 'follows', direction: 'out' as const }];
    const capped = await r.traverse(root, hops, { perHopCap: 50, concurrency: 4, pageSize: 10 });
    expect(capped.hops[0]).toMatchObject({ vertices: expect.any(Array), truncated: false });
    expect(capped.partial).toEqual({ reason: 'hop_cap', hop: 1 });
    expect(capped.hops[0]!.vertices).toHaveLength(30);
    expect(capped.hops[1]!.vertices).toHaveLength(50);
    expect(new Set(capped.hops[1]!.vertices).size).toBe(50);
    expect(capped.hops[1]!.truncated).toBe(true);
    expect(capped.truncated).toBe(true);

    const whole = await r.traverse(root, hops, { perHopCap: 1_000, concurrency: 8 });
    expect(whole.hops.map((h) => [h.vertices.length, h.truncated])).toEqual([[30, false], [600, false]]);
    expect(whole.truncated).toBe(false);
  });

  it('props with keys reads only the requested cells (key pushdown); without keys the whole bag', async () => {
    const recording = recordingPartitionReader(createStorePartitionReader(env.store));
    const r = createEdgeReader({ partitions: recording.reader, config: env.config });
    expect(await r.props('follows', propsSrc, 'pd', ['since', 'note', 'absent'])).toEqual({ since: 2020n, note: 'hello' });
    // One multi-key request (getKeys: id = ? AND key IN ?); keys are 0x00 ‖ direction ‖ name, and ps-… → pd is the backward bag of partition pd␀ps-….
    expect(recording.calls.map((c) => [c.kind, c.keys?.map((k) => Buffer.from(k).toString())])).toEqual([['getKeys', ['\u0000\u0002since', '\u0000\u0002note', '\u0000\u0002absent']]]);
    expect(await r.props('follows', propsSrc, 'pd')).toEqual({ since: 2020n, weight: 0.75, note: 'hello', muted: false, blob: Buffer.alloc(2_000, 7) });
    expect(await r.props('follows', 'pd', propsSrc)).toEqual({}); // the other direction's bag
  });

  it('time ranges and multi-gets on Cassandra equal the model: a range page of the exact index (written through the pipeline) is one bounded slice, 128 links one getKeys', async () => {
    const recording = recordingPartitionReader(createStorePartitionReader(env.store));
    const r = reader({ partitions: recording.reader });
    const [low, high] = [base + 1_000n, base + 10_200n];
    const expected = expectedOut.filter((n) => n.time >= low && n.time < high);
    expect(expected.length).toBeGreaterThan(1_000);
    const page = await r.timeRange('follows', hub, 'out', { low, high, limit: 10_000 });
    expect(page.items.map((n) => [n.peer, n.time])).toEqual(expected.map((n) => [n.peer, n.time]));
    expect(page.cursor).toBeUndefined();
    expect(recording.calls.map((c) => c.kind)).toEqual(['page']);
    const byCursor: Neighbour[] = [];
    let cursor: string | undefined;
    do {
      const p = await r.timeRange('follows', hub, 'out', { low, high, limit: 700, ...(cursor === undefined ? {} : { cursor }) });
      byCursor.push(...p.items);
      cursor = p.cursor;
    } while (cursor !== undefined);
    expect(byCursor).toEqual(page.items);
    recording.reset();
    const dsts = Array.from({ length: 128 }, (_, i) => `p${i * 23}`);
    const got = await r.edges('follows', hub, dsts);
    expect(recording.calls.map((c) => [c.kind, c.namespace])).toEqual([['getKeys', 'follows_out']]);
    expect(got.map((g) => [g.dst, g.link])).toEqual(dsts.map((dst) => [dst, model.links.get(`follows\u0000${hub}\u0000${dst}`)?.value]));
  });

  it('the CLI prints a page with its cursor and a traversal as one JSON document', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-reads-'));
    const configFile = path.join(dir, 'edgestream.config.json');
    fs.writeFileSync(configFile, JSON.stringify(env.configInput));
    const cli = (...args: string[]) =>
      exec(process.execPath, [path.join(REPO_ROOT, 'bin/edgestream.js'), '--config', configFile, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...endpointsToEnv(env.endpoints) }, timeout: 60_000 });
    try {
      const out = await cli('out', 'follows', hub, '--limit', '3');
      const lines = out.stdout.trim().split('\n');
      expect(lines.slice(0, 3).map((l) => l.split('\t')[0])).toEqual(expectedOut.slice(0, 3).map((n) => n.peer));
      const cursor = /next page: --cursor (\S+)$/.exec(lines[3]!)?.[1];
      expect(cursor).toBeDefined();
      const next = await cli('out', 'follows', hub, '--limit', '2', '--cursor', cursor!, '--json');
      expect(JSON.parse(next.stdout).items.map((n: { peer: string }) => n.peer)).toEqual(expectedOut.slice(3, 5).map((n) => n.peer));

      const traversal = await cli('traverse', root, '--hops', 'follows:out,follows:out', '--cap', '50', '--json');
      const doc = JSON.parse(traversal.stdout) as { truncated: boolean; hops: { type: string; direction: string; vertices: string[]; truncated: boolean }[] };
      expect(doc.truncated).toBe(true);
      expect(doc.hops.map((h) => [h.type, h.direction, h.vertices.length, h.truncated])).toEqual([['follows', 'out', 30, false], ['follows', 'out', 50, true]]);

      const misuse = await cli('in', 'follows', hub, '--cursor', cursor!).catch((e: { code: number; stderr: string }) => e);
      expect(misuse).toMatchObject({ code: 1, stderr: expect.stringMatching(/--cursor: belongs to another query/) });

      const inRange = expectedOut.filter((n) => n.time >= base + 100n && n.time < base + 200n);
      const range = await cli('range', 'follows', hub, 'out', '--low', String(base + 100n), '--high', String(base + 200n), '--limit', '3');
      const rangeLines = range.stdout.trim().split('\n');
      expect(rangeLines.slice(0, 3).map((l) => l.split('\t')[0])).toEqual(inRange.slice(0, 3).map((n) => n.peer));
      expect(rangeLines[3]).toMatch(new RegExp(`next page: --cursor \\S+ \\(or --high ${inRange[2]!.time}\\)$`));
      const rangeJson = JSON.parse((await cli('range', 'follows', hub, '--low', String(base + 100n), '--high', String(base + 200n), '--limit', '1000', '--json')).stdout);
      expect(rangeJson.items.map((n: { peer: string }) => n.peer)).toEqual(inRange.map((n) => n.peer));
      const badRange = await cli('range', 'follows', hub, '--low', '20', '--high', '10').catch((e: { code: number; stderr: string }) => e);
      expect(badRange).toMatchObject({ code: 1, stderr: expect.stringMatching(/--low: must be at most high/) });

      const edges = JSON.parse((await cli('edges', 'follows', propsSrc, 'pd', 'nobody', '--keys', 'since,absent', '--json')).stdout);
      expect(edges.edges).toEqual([
        { dst: 'pd', link: { state: 'ACTIVE', time: String(base + 1n), mutationId: expect.any(String) }, properties: { since: { type: 'long', value: '2020' } } },
        { dst: 'nobody', link: null },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
