import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../cli/commandContext.ts';
import { startEdgeService, type RunningService } from '../../cli/commands/serve.ts';
import { parseEdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import { createConsistencyGate, createEdgeServer, fetchOffsetSnapshot, openApiDocument } from '../../server/index.ts';
import { createEdgeReader, createStorePartitionReader } from '../../reads/index.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { Kafka, logLevel } from 'kafkajs';
import { kafkajsPort } from '../../streams/kafka/kafkajs/index.ts';
import { closedPort } from '../support/closedPort.ts';
import { API_VERSION } from '../../server/api/openApiFile.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { createEdgePipeline, type EdgePipeline, type EdgePipelineStage } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { REPO_ROOT } from '../support/processorProcess.ts';

/**
 * `edgestream serve` over real HTTP on the real stack: the server runs
 * in-process on an ephemeral port (and, for SIGTERM, as a child process), the
 * real fan-out and repair run beside it, requests go through fetch().
 */
describe('the HTTP server on Kafka + Cassandra', () => {
  let env: EdgestreamEnv;
  let pipeline: EdgePipeline | undefined;
  let service: RunningService;
  let limited: RunningService;
  const children = new Set<ChildProcess>();
  const rand = randomBytes(3).toString('hex');
  const v = (name: string) => `${name}-${rand}`;

  const contextFor = (server: NonNullable<EdgestreamConfigInput['server']>): CommandContext => ({
    config: parseEdgestreamConfig({ ...env.configInput, server }, 'test config'),
    endpoints: env.endpoints,
    kafka: async () => env.kafka,
    registry: async () => env.registry,
    logger: env.logger,
    store: async () => env.store,
  });
  const startPipeline = async (stages: EdgePipelineStage[] = ['fanout', 'repair', 'recount']): Promise<EdgePipeline> => {
    const p = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, stages, tuning: { progressIntervalMs: 600_000 } });
    await p.start();
    return p;
  };

  const call = async (base: string, pathAndQuery: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${pathAndQuery}`, init);
    const text = await res.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
    return { status: res.status, type: res.headers.get('content-type') ?? '', retryAfter: res.headers.get('retry-after'), body: text ? (JSON.parse(text) as Record<string, any>) : {} };
  };
  const get = (p: string) => call(service.url, p);
  const post = (body: unknown, base = service.url) => call(base, '/v1/mutations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const follow = (src: string, dst: string, properties?: Record<string, unknown>) => post({ op: 'ADD_EDGE', type: 'follows', src, dst, ...(properties ? { properties } : {}) });

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'httpserver' });
    pipeline = await startPipeline();
    service = await startEdgeService(contextFor({ readYourWritesTimeoutMs: 15_000, offsetPollIntervalMs: 50, bodyLimitBytes: 4_096, rateLimitMax: 100_000 }), { port: 0, host: '127.0.0.1' });
    limited = await startEdgeService(contextFor({ readYourWritesTimeoutMs: 400, rateLimitMax: 5, rateLimitWindowMs: 60_000 }), { port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.pid) process.kill(c.pid, 'SIGKILL');
    await service?.stop().catch(() => undefined);
    await limited?.stop().catch(() => undefined);
    await pipeline?.stop().catch(() => undefined);
    await env?.teardown();
  });

  it('POST /v1/mutations answers 202 with a token naming the record, and a read after it sees the edge', async () => {
    const w = await follow(v('alice'), v('bob'), { since: 2024, weight: 0.5, note: 'hi' });
    expect(w.status).toBe(202);
    expect(w.body).toMatchObject({ topic: env.topics.input, token: `${env.topics.input}:${w.body['partition']}:${w.body['offset']}` });
    const edge = await get(`/v1/edges/follows/${v('alice')}/${v('bob')}?after=${w.body['token']}`);
    expect(edge).toMatchObject({ status: 200, body: { state: 'ACTIVE', mutationId: w.body['mutationId'], time: w.body['eventTime'] } });
  });

  it('serves neighbour pages newest first and by peer, following cursors, in and out', async () => {
    let token = '';
    for (let i = 0; i < 5; i++) token = (await follow(v('pager'), v(`n${i}`))).body['token'];
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(`/v1/vertices/${v('pager')}/out/follows?limit=2&after=${token}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body['items'].map((n: { peer: string }) => n.peer));
      cursor = page.body['cursor'];
    } while (cursor);
    expect(seen).toEqual([4, 3, 2, 1, 0].map((i) => v(`n${i}`)));
    const byPeer = await get(`/v1/vertices/${v('pager')}/out/follows?order=peer&limit=10`);
    expect(byPeer.body['items'].map((n: { peer: string }) => n.peer)).toEqual([0, 1, 2, 3, 4].map((i) => v(`n${i}`)));
    const incoming = await get(`/v1/vertices/${v('n3')}/in/follows`);
    expect(incoming.body['items'].map((n: { peer: string }) => n.peer)).toEqual([v('pager')]);
  });

  it('hides and un-hides an edge, and carries a client edge time and a data payload (TAO states, time and data over HTTP)', async () => {
    const data = Buffer.from([0, 1, 2, 250]).toString('base64');
    await post({ op: 'ADD_EDGE', type: 'follows', src: v('tao'), dst: v('old'), edgeTime: '1700000000000000' });
    const added = await post({ op: 'ADD_EDGE', type: 'follows', src: v('tao'), dst: v('new'), edgeTime: '1800000000000000', data });
    expect(added.status).toBe(202);
    const page = await get(`/v1/vertices/${v('tao')}/out/follows?limit=10&after=${added.body['token']}`);
    expect(page.body['items'].map((n: { peer: string }) => n.peer)).toEqual([v('new'), v('old')]); // newest first by edge time
    expect(page.body['items'][0]).toMatchObject({ time: '1800000000000000', data });
    const hidden = await post({ op: 'HIDE_EDGE', type: 'follows', src: v('tao'), dst: v('new'), edgeTime: '1800000000000000', data });
    expect(hidden.status).toBe(202);
    expect(await get(`/v1/edges/follows/${v('tao')}/${v('new')}?after=${hidden.body['token']}`)).toMatchObject({ status: 200, body: { state: 'HIDDEN' } });
    expect((await get(`/v1/vertices/${v('tao')}/out/follows?limit=10`)).body['items'].map((n: { peer: string }) => n.peer)).toEqual([v('old')]);
    const shown = await post({ op: 'UNHIDE_EDGE', type: 'follows', src: v('tao'), dst: v('new'), edgeTime: '1800000000000000', data });
    const again = await get(`/v1/vertices/${v('tao')}/out/follows?limit=10&after=${shown.body['token']}`);
    expect(again.body['items'].map((n: { peer: string }) => n.peer)).toEqual([v('new'), v('old')]);
    const tooBig = await post({ op: 'ADD_EDGE', type: 'follows', src: v('tao'), dst: v('x'), data: Buffer.alloc(256).toString('base64') });
    expect(tooBig.status).toBe(400);
    expect(JSON.stringify(tooBig.body)).toMatch(/data/);
  });

  it('reads properties with key pushdown, degrees and traversals', async () => {
    const w = await follow(v('p'), v('q'), { since: 2024, weight: 0.5, note: 'hi' });
    await follow(v('q'), v('r'));
    const last = (await follow(v('q'), v('s'))).body['token'];
    const props = await get(`/v1/edges/follows/${v('p')}/${v('q')}/properties?keys=since&keys=note&keys=absent&after=${w.body['token']}`);
    expect(props).toMatchObject({ status: 200, body: { properties: { since: { type: 'long', value: '2024' }, note: { type: 'string', value: 'hi' } } } });
    expect(Object.keys(props.body['properties']).sort()).toEqual(['note', 'since']);
    const all = await get(`/v1/edges/follows/${v('p')}/${v('q')}/properties`);
    expect(Object.keys(all.body['properties']).sort()).toEqual(['note', 'since', 'weight']);
    const walk = await get(`/v1/vertices/${v('p')}/traversal?hops=follows:out&hops=follows:out&cap=10&after=${last}`);
    expect(walk.body).toMatchObject({ truncated: false, hops: [{ vertices: [v('q')] }, { type: 'follows', direction: 'out' }] });
    expect([...walk.body['hops'][1].vertices].sort()).toEqual([v('r'), v('s')]);
    // Degrees are a recounted projection: they converge within a few recount intervals.
    await expect.poll(async () => (await get(`/v1/vertices/${v('q')}/degree/follows`)).body, { timeout: 10_000 }).toMatchObject({ out: '2', in: '1' });
    expect((await get(`/v1/vertices/${v('q')}/degree/follows?direction=in`)).body).toEqual({ type: 'follows', vertex: v('q'), in: '1' });
  });

  // The props read-aside cache (5 s) also remembers absent keys; a read carrying a token must not be served from it.
  for (const [route, tag, read] of [
    ['GET …/properties', 'props', (src: string, dst: string, q: string) => get(`/v1/edges/follows/${src}/${dst}/properties?${q}`).then((r) => ({ status: r.status, properties: r.body['properties'] }))],
    ['GET /v1/edges/{type}/{src}?dst= (multi-get)', 'multi', (src: string, dst: string, q: string) => get(`/v1/edges/follows/${src}?dst=${dst}&${q}`).then((r) => ({ status: r.status, properties: r.body['items']?.[0]?.properties }))],
  ] as const) {
    it(`${route} with ?after= sees a SET_PROPERTIES made after the property cache was filled, absent keys included`, async () => {
      const [src, dst] = [v(`ryw-${tag}`), v('rywDst')];
      const added = await follow(src, dst, { note: 'old' });
      expect((await get(`/v1/edges/follows/${src}/${dst}?after=${added.body['token']}`)).status).toBe(200);
      const keys = 'keys=note&keys=colour';
      // without a token: fills the cache with note = old and colour absent
      expect(await read(src, dst, keys)).toEqual({ status: 200, properties: { note: { type: 'string', value: 'old' } } });
      const set = await post({ op: 'SET_PROPERTIES', type: 'follows', src, dst, properties: { note: 'new', colour: 'red' } });
      expect(set.status).toBe(202);
      expect(await read(src, dst, `${keys}&after=${set.body['token']}`)).toEqual({ status: 200, properties: { note: { type: 'string', value: 'new' }, colour: { type: 'string', value: 'red' } } });
    });
  }

  it('serves time ranges (assoc_time_range): [low, high) newest first, paged by cursor and by high= alike, in and out', async () => {
    const base = BigInt(Date.now()) * 1_000n - 60_000_000n;
    const at = (i: number) => base + BigInt(i) * 1_000n;
    let token = '';
    // The server stamps event times; ranges are on the edge time, which the client sets.
    for (let i = 0; i < 8; i++) token = (await post({ op: 'ADD_EDGE', type: 'follows', src: v('ranger'), dst: v(`t${i}`), edgeTime: String(at(i)) })).body['token'];
    await post({ op: 'ADD_EDGE', type: 'follows', src: v('t5'), dst: v('ranger'), edgeTime: String(at(3)) });
    const removed = await post({ op: 'REMOVE_EDGE', type: 'follows', src: v('ranger'), dst: v('t4') });
    const rangePath = (q: string) => `/v1/vertices/${v('ranger')}/out/follows/range?${q}`;
    const first = await get(rangePath(`low=${at(2)}&high=${at(7)}&limit=2&after=${removed.body['token']}`));
    expect(first).toMatchObject({ status: 200, body: { items: [{ peer: v('t6'), time: String(at(6)) }, { peer: v('t5'), time: String(at(5)) }] } });
    const byCursor: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(rangePath(`low=${at(2)}&high=${at(7)}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
      byCursor.push(...page.body['items'].map((n: { peer: string }) => n.peer));
      cursor = page.body['cursor'];
    } while (cursor);
    expect(byCursor).toEqual([6, 5, 3, 2].map((i) => v(`t${i}`))); // t4 was removed, t7 is at high, t1 below low
    const byTime: string[] = [];
    let high = String(at(7));
    for (;;) {
      const page = await get(rangePath(`low=${at(2)}&high=${high}&limit=2`));
      byTime.push(...page.body['items'].map((n: { peer: string }) => n.peer));
      if (!page.body['cursor']) break;
      high = page.body['items'].at(-1).time;
    }
    expect(byTime).toEqual(byCursor);
    const since = await get(rangePath(`low=${at(6)}&after=${token}`));
    expect(since.body['items'].map((n: { peer: string }) => n.peer)).toEqual([v('t7'), v('t6')]);
    const incoming = await get(`/v1/vertices/${v('ranger')}/in/follows/range?high=${at(4)}`);
    expect(incoming.body).toEqual({ items: [{ peer: v('t5'), time: String(at(3)), mutationId: expect.any(String) }] });
  });

  it('reads many edges of one source in one call (assoc_get): found links with their state and requested properties, absent ones listed', async () => {
    await follow(v('getter'), v('g1'), { since: 2021, note: 'a' });
    await follow(v('getter'), v('g2'), { since: 2022 });
    const last = await post({ op: 'REMOVE_EDGE', type: 'follows', src: v('getter'), dst: v('g2') });
    const got = await get(`/v1/edges/follows/${v('getter')}?dst=${v('g2')}&dst=${v('none')}&dst=${v('g1')}&keys=since&after=${last.body['token']}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      type: 'follows',
      src: v('getter'),
      items: [
        { dst: v('g2'), state: 'REMOVED', time: last.body['eventTime'], mutationId: last.body['mutationId'], properties: { since: { type: 'long', value: '2022' } } },
        { dst: v('g1'), state: 'ACTIVE', time: expect.any(String), mutationId: expect.any(String), properties: { since: { type: 'long', value: '2021' } } },
      ],
      absent: [v('none')],
    });
    const one = await get(`/v1/edges/follows/${v('getter')}?dst=${v('g1')}`);
    expect(one.body['items']).toEqual([{ dst: v('g1'), state: 'ACTIVE', time: expect.any(String), mutationId: expect.any(String) }]);
  });

  it('answers bad parameters with application/problem+json naming each parameter', async () => {
    const cases: [string, Promise<Awaited<ReturnType<typeof get>>>, string][] = [
      ['limit out of range', get(`/v1/vertices/x/out/follows?limit=0`), 'limit'],
      ['a parameter the operation lacks', get(`/v1/vertices/x/out/follows?colour=red`), 'colour'],
      ['an edge type that is no identifier', get(`/v1/vertices/x/out/Follows`), 'type'],
      ['an edge type the config lacks (the enum of the config\'s edge types)', get(`/v1/vertices/x/out/blocks`), 'type'],
      ['a malformed hop', get(`/v1/vertices/x/traversal?hops=follows:sideways`), 'hops.0'],
      ['a missing hop list', get(`/v1/vertices/x/traversal`), 'hops'],
      ['a malformed cursor', get(`/v1/vertices/x/out/follows?cursor=not-a-cursor`), 'cursor'],
      ['a malformed token', get(`/v1/edges/follows/a/b?after=yesterday`), 'after'],
      ['a time range with low above high (the reader refuses it)', get(`/v1/vertices/x/out/follows/range?low=20&high=10`), 'low'],
      ['a time range bound that is no number', get(`/v1/vertices/x/in/follows/range?high=yesterday`), 'high'],
      ['a time range bound above 2^63', get(`/v1/vertices/x/out/follows/range?low=9223372036854775809`), 'low'],
      ['a time range limit above 10000', get(`/v1/vertices/x/out/follows/range?limit=10001`), 'limit'],
      ['a multi-get without dst', get(`/v1/edges/follows/a`), 'dst'],
      ['a multi-get of 129 edges', get(`/v1/edges/follows/a?${Array.from({ length: 129 }, (_, i) => `dst=d${i}`).join('&')}`), 'dst'],
      ['a multi-get with a bad dst (the reader refuses it)', get(`/v1/edges/follows/a?dst=b&dst=${encodeURIComponent('c\u0000')}`), 'dst.1'],
      ['a body without dst', post({ op: 'ADD_EDGE', type: 'follows', src: 'a' }), 'dst'],
      ['a nested property value', post({ op: 'ADD_EDGE', type: 'follows', src: 'a', dst: 'b', properties: { x: { y: 1 } } }), 'properties.x'],
      ['an unknown op', post({ op: 'MERGE', src: 'a' }), 'op'],
      ['an event time (this server stamps its own)', post({ op: 'REMOVE_EDGE', type: 'follows', src: 'a', dst: 'b', eventTime: String(BigInt(Date.now()) * 1000n) }), 'eventTime'],
      ['an edge time in seconds (the SDK refuses it)', post({ op: 'ADD_EDGE', type: 'follows', src: 'a', dst: 'b', edgeTime: 1_700_000_000 }), 'edgeTime'],
    ];
    for (const [what, pending, name] of cases) {
      const r = await pending;
      expect({ what, status: r.status, type: r.type }).toEqual({ what, status: 400, type: expect.stringContaining('application/problem+json') });
      expect({ what, names: r.body['invalid-params'].map((p: { name: string }) => p.name) }).toEqual({ what, names: expect.arrayContaining([name]) });
      expect(r.body).toMatchObject({ type: 'urn:edgestream:problem:invalid-params', status: 400, detail: expect.stringContaining(name) });
    }
    const missing = await get(`/v1/edges/follows/${v('nobody')}/${v('none')}`);
    expect(missing).toMatchObject({ status: 404, type: expect.stringContaining('application/problem+json'), body: { status: 404 } });
  });

  it('stamps event times with the server clock, and a retried mutationId keeps its first time, so it cannot undo a later REMOVE', async () => {
    const before = BigInt(Date.now()) * 1000n;
    const first = await post({ op: 'ADD_EDGE', type: 'follows', src: v('stamp'), dst: v('x'), mutationId: v('follow-once') });
    expect(first.status).toBe(202);
    expect(BigInt(first.body['eventTime'])).toBeGreaterThanOrEqual(before);
    expect(BigInt(first.body['eventTime'])).toBeLessThanOrEqual(BigInt(Date.now()) * 1000n);
    const unfollow = await post({ op: 'REMOVE_EDGE', type: 'follows', src: v('stamp'), dst: v('x') });
    // The client lost the first answer and retries: the same mutation, at the same time.
    const retried = await post({ op: 'ADD_EDGE', type: 'follows', src: v('stamp'), dst: v('x'), mutationId: v('follow-once') });
    expect(retried.body['eventTime']).toBe(first.body['eventTime']);
    const edge = await get(`/v1/edges/follows/${v('stamp')}/${v('x')}?after=${retried.body['token']}`);
    expect(edge.body).toMatchObject({ state: 'REMOVED', mutationId: unfollow.body['mutationId'] });
  });

  it("with server.clientEventTime 'accept' a client's event time is taken within the skew window and the resurrection horizon, and refused beyond either, naming eventTime", async () => {
    const accepting = await startEdgeService(contextFor({ clientEventTime: 'accept', rateLimitMax: 100_000 }), { port: 0, host: '127.0.0.1' });
    try {
      const now = BigInt(Date.now()) * 1000n;
      const minuteAgo = String(now - 60_000_000n);
      const taken = await post({ op: 'ADD_EDGE', type: 'follows', src: v('clock'), dst: v('y'), eventTime: minuteAgo }, accepting.url);
      expect(taken).toMatchObject({ status: 202, body: { eventTime: minuteAgo } });
      const cases: [string, bigint, RegExp][] = [
        ['10 days old', now - 10n * 86_400_000_000n, /past the resurrection horizon \(9\.0 days/],
        ['10 minutes ahead', now + 600_000_000n, /beyond the skew window \(limits\.maxFutureSkewMs 300000\)/],
      ];
      for (const [what, eventTime, reason] of cases) {
        const r = await post({ op: 'SET_PROPERTIES', type: 'follows', src: v('clock'), dst: v('y'), properties: { color: 'red' }, eventTime: String(eventTime) }, accepting.url);
        expect({ what, status: r.status, type: r.type }).toEqual({ what, status: 400, type: expect.stringContaining('application/problem+json') });
        expect(r.body['invalid-params']).toEqual([{ name: 'eventTime', in: 'body', reason: expect.stringMatching(reason) }]);
      }
    } finally {
      await accepting.stop();
    }
  });

  it('refuses a body over server.bodyLimitBytes with 413 problem+json', async () => {
    const r = await post({ op: 'ADD_EDGE', type: 'follows', src: 'a', dst: 'b', properties: { blob: 'x'.repeat(5_000) } });
    expect(r).toMatchObject({ status: 413, type: expect.stringContaining('application/problem+json'), body: { type: 'urn:edgestream:problem:body-too-large' } });
  });

  it('rate limits a client past server.rateLimitMax with 429 and Retry-After, but never /healthz', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await call(limited.url, `/v1/vertices/x/out/follows`);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last).toMatchObject({ type: expect.stringContaining('application/problem+json'), body: { type: 'urn:edgestream:problem:rate-limited', status: 429 } });
    expect(Number(last?.retryAfter)).toBeGreaterThan(0);
    expect((await call(limited.url, '/healthz')).status).toBe(200);
  });

  it('read-your-writes under load: 8 concurrent clients, every read carrying a token sees its write', async () => {
    const client = async (c: number) => {
      const failures: string[] = [];
      for (let i = 0; i < 25; i++) {
        const src = v(`load${c}`);
        const dst = v(`t${c}-${i}`);
        const w = await follow(src, dst);
        if (w.status !== 202) {
          failures.push(`write ${c}/${i}: ${w.status}`);
          continue;
        }
        const [edge, page] = await Promise.all([
          get(`/v1/edges/follows/${src}/${dst}?after=${w.body['token']}`),
          get(`/v1/vertices/${dst}/in/follows?after=${w.body['token']}`),
        ]);
        if (edge.status !== 200 || edge.body['mutationId'] !== w.body['mutationId']) failures.push(`edge ${c}/${i}: ${edge.status} ${JSON.stringify(edge.body)}`);
        if (page.status !== 200 || page.body['items'][0]?.peer !== src) failures.push(`in-page ${c}/${i}: ${page.status} ${JSON.stringify(page.body)}`);
      }
      return failures;
    };
    const started = Date.now();
    const failures = (await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)))).flat();
    expect(failures).toEqual([]);
    const waits = await service.server.metrics.consistencyWaits.get();
    const of = (name: string) => waits.values.find((x) => x.metricName === name && x.labels['outcome'] === 'visible')?.value ?? 0;
    console.log(`[httpServer] 200 write→read pairs by 8 clients in ${Date.now() - started} ms; token waits: ${of('edgestream_consistency_wait_seconds_count')}, mean ${((of('edgestream_consistency_wait_seconds_sum') / of('edgestream_consistency_wait_seconds_count')) * 1000).toFixed(0)} ms`);
  });

  it('/readyz reports every check, /metrics exposes request metrics, /openapi.json is the checked-in document', async () => {
    expect(await get('/readyz')).toMatchObject({ status: 200, body: { status: 'ready', checks: { kafka: 'ok', schemaRegistry: 'ok', cassandra: 'ok', splitDirectory: 'ok' } } });
    expect((await get('/healthz')).status).toBe(200);
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toMatch(/edgestream_http_request_duration_seconds_count\{method="POST",route="\/v1\/mutations",status="202"\} [1-9]/);
    expect(metrics).toMatch(/edgestream_consistency_wait_seconds_count\{outcome="visible"\} [1-9]/);
    // The reader's and the split directory's series share the server's registry: one scrape shows them all.
    expect(metrics).toMatch(/edgestream_read_duration_seconds_count\{operation="(out|in)",outcome="ok"\} [1-9]/);
    expect(metrics).toMatch(/edgestream_read_queries_count\{operation="(out|in)"\} [1-9]/);
    expect(metrics).toMatch(/edgestream_split_directory_checks_total [1-9]/);
    expect((await get('/openapi.json')).body).toEqual(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'docs/openapi.json'), 'utf8')));
    expect(JSON.parse(JSON.stringify(openApiDocument(API_VERSION, env.config.edgeTypes.map((t) => t.name))))).toEqual((await get('/openapi.json')).body);
  });

  it('/readyz is 503 problem+json naming the dependency that does not answer (Kafka down), while /healthz stays 200', async () => {
    const down = kafkajsPort(new Kafka({ clientId: 'it-down', brokers: [`127.0.0.1:${await closedPort()}`], logLevel: logLevel.NOTHING, retry: { retries: 1, initialRetryTime: 50 }, connectionTimeout: 300 }));
    const admin = down.admin();
    const config = contextFor({}).config;
    const gate = createConsistencyGate({ fetch: () => fetchOffsetSnapshot(admin, { inputTopic: env.topics.input, fanOutGroup: 'g', repairTopic: env.topics.repair, repairGroup: 'r' }), pollIntervalMs: 50, logger: env.logger });
    const reader = createEdgeReader({ partitions: createStorePartitionReader(env.store), config });
    const producer = createEdgeProducer({ kafka: down, serde: env.serde, config });
    const server = await createEdgeServer({
      reader,
      producer,
      gate,
      readiness: [
        { name: 'kafka', check: async () => void (await admin.fetchTopicOffsets(env.topics.input)) },
        { name: 'cassandra', check: async () => void (await reader.edge('follows', 'a', 'b')) },
      ],
      limits: { ...config.server, readYourWritesTimeoutMs: 300 },
      edgeTypes: config.edgeTypes.map((t) => t.name),
      logger: env.logger,
    });
    try {
      const base = await server.listen(0, '127.0.0.1');
      const ready = await call(base, '/readyz');
      expect(ready).toMatchObject({ status: 503, type: expect.stringContaining('application/problem+json'), body: { type: 'urn:edgestream:problem:not-ready', checks: { cassandra: 'ok' }, detail: expect.stringMatching(/^kafka: /) } });
      expect((await call(base, '/healthz')).status).toBe(200);
      // with Kafka down, a token cannot be confirmed: 503 saying the offsets could not be read
      const waited = await call(base, `/v1/edges/follows/a/b?after=${env.topics.input}:0:0`);
      expect(waited).toMatchObject({ status: 503, body: { detail: expect.stringContaining('committed offsets could not be read') } });
    } finally {
      await server.close();
      await producer.close().catch(() => undefined);
    }
  });

  it('a token this server does not know is 409; one whose write the fan-out has not applied is 503 with Retry-After once the wait runs out', async () => {
    expect((await get(`/v1/edges/follows/a/b?after=elsewhere.edge-mutations:0:1`)).status).toBe(409);
    expect((await get(`/v1/edges/follows/a/b?after=${env.topics.input}:99:0`)).status).toBe(409);
    const far = await get(`/v1/edges/follows/a/b?after=${env.topics.input}:0:999999999`);
    expect(far).toMatchObject({ status: 409, body: { type: 'urn:edgestream:problem:unknown-consistency-token', 'invalid-params': [{ name: 'after' }] } });

    await pipeline?.stop();
    pipeline = undefined;
    const w = await follow(v('late'), v('reader'));
    const short = await startEdgeService(contextFor({ readYourWritesTimeoutMs: 500 }), { port: 0, host: '127.0.0.1' });
    try {
      const pending = await call(short.url, `/v1/edges/follows/${v('late')}/${v('reader')}?after=${w.body['token']}`);
      expect(pending).toMatchObject({ status: 503, type: expect.stringContaining('application/problem+json'), body: { type: 'urn:edgestream:problem:write-not-visible-yet', detail: expect.stringContaining(`/${w.body['partition']}`) } });
      expect(Number(pending.retryAfter)).toBeGreaterThan(0);
    } finally {
      await short.stop();
      pipeline = await startPipeline();
    }
    expect((await get(`/v1/edges/follows/${v('late')}/${v('reader')}?after=${w.body['token']}`)).body).toMatchObject({ state: 'ACTIVE' });
  });

  it('a token waits while its repair partition holds an unrepaired record, and is served once the repair group commits it', async () => {
    await pipeline?.stop();
    pipeline = await startPipeline(['fanout']); // no repair runner yet
    const src = v('repaired');
    const first = await follow(src, v('x1'));
    // an unrepaired record on the repair partition of src's partition (undecodable: the repair runner will dead-letter it)
    const raw = env.kafka.producer();
    await raw.connect();
    await raw.send({ topic: env.topics.repair, messages: [{ partition: first.body['partition'], key: src, value: Buffer.from('not avro') }] });
    await raw.disconnect();
    const w = await follow(src, v('x2'));
    expect(w.body['partition']).toBe(first.body['partition']);
    const short = await startEdgeService(contextFor({ readYourWritesTimeoutMs: 1_500 }), { port: 0, host: '127.0.0.1' });
    let repairer: EdgePipeline | undefined;
    try {
      const held = await call(short.url, `/v1/edges/follows/${src}/${v('x2')}?after=${w.body['token']}`);
      expect(held).toMatchObject({ status: 503, body: { detail: expect.stringContaining(`not repaired yet`) } });
      repairer = await startPipeline(['repair']);
      const served = await call(service.url, `/v1/edges/follows/${src}/${v('x2')}?after=${w.body['token']}`);
      expect(served).toMatchObject({ status: 200, body: { state: 'ACTIVE', mutationId: w.body['mutationId'] } });
      expect(await env.dlqCount()).toBeGreaterThanOrEqual(1);
    } finally {
      await short.stop();
      await repairer?.stop();
    }
  });

  it('SIGTERM: stops accepting, finishes the read in flight, flushes and exits 0', async () => {
    await pipeline?.stop();
    pipeline = undefined;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-serve-'));
    const configFile = path.join(dir, 'edgestream.config.json');
    fs.writeFileSync(configFile, JSON.stringify({ ...env.configInput, server: { readYourWritesTimeoutMs: 30_000, offsetPollIntervalMs: 50 } }));
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/edgestream.js'), '--config', configFile, 'serve', '--port', '0'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...endpointsToEnv(env.endpoints), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      void exited.then((code) => reject(new Error(`serve exited ${code} before listening: ${stderr.slice(-2000)}`)));
    });

    // A write the fan-out (stopped) has not applied, and a read waiting for it.
    const w = await post({ op: 'ADD_EDGE', type: 'follows', src: v('drain'), dst: v('target') }, base);
    expect(w.status).toBe(202);
    const inFlight = call(base, `/v1/edges/follows/${v('drain')}/${v('target')}?after=${w.body['token']}`);
    await new Promise((r) => setTimeout(r, 500));
    process.kill(child.pid!, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    // no longer accepting: a new connection is refused or answered 503
    const late = await fetch(`${base}/healthz`).then((r) => r.status, () => 'refused');
    expect([503, 'refused']).toContain(late);
    expect(child.exitCode).toBeNull(); // still draining the read in flight

    pipeline = await startPipeline(); // the fan-out applies the write: the waiting read completes
    expect(await inFlight).toMatchObject({ status: 200, body: { state: 'ACTIVE', mutationId: w.body['mutationId'] } });
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/"outcome":"drained"/);
  });
});
