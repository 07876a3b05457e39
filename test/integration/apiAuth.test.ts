import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../cli/commandContext.ts';
import { startEdgeService, type RunningService } from '../../cli/commands/serve.ts';
import { parseEdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import { createTestIssuer, type TestIssuer } from '../../server/auth/testing/createTestIssuer.ts';
import { createEdgePipeline, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';

/**
 * `edgestream serve` with server.auth.mode 'jwt', over real HTTP on the real
 * stack: bearer tokens signed at test time by an issuer whose public key the
 * server reads from a file; every log line the servers write is captured.
 */
describe('the HTTP API with bearer-JWT authentication', () => {
  let env: EdgestreamEnv;
  let issuer: TestIssuer;
  let pipeline: EdgePipeline;
  const services: RunningService[] = [];
  let service: RunningService;
  const logLines: string[] = [];
  const tokensUsed: string[] = [];
  const rand = randomBytes(3).toString('hex');
  const v = (name: string) => `${name}-${rand}`;

  // Every line any of these servers logs, at trace level.
  const logger = pino({ level: 'trace' }, new Writable({ write: (chunk: Buffer, _enc, done) => void (logLines.push(chunk.toString()), done()) }));
  const start = async (server: NonNullable<EdgestreamConfigInput['server']>): Promise<RunningService> => {
    const ctx: CommandContext = { config: parseEdgestreamConfig({ ...env.configInput, server }, 'test config'), endpoints: env.endpoints, kafka: async () => env.kafka, registry: async () => env.registry, logger, store: async () => env.store };
    const s = await startEdgeService(ctx, { port: 0, host: '127.0.0.1' });
    services.push(s);
    return s;
  };
  const token = async (claims: Parameters<TestIssuer['sign']>[0] = {}) => {
    const t = await issuer.sign(claims);
    tokensUsed.push(t);
    return t;
  };
  const call = async (base: string, pathAndQuery: string, bearer?: string, body?: unknown) => {
    const headers: Record<string, string> = { ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const res = await fetch(`${base}${pathAndQuery}`, { method: body === undefined ? 'GET' : 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('json') && text ? (JSON.parse(text) as Record<string, unknown>) : {};
    return { status: res.status, type: res.headers.get('content-type') ?? '', challenge: res.headers.get('www-authenticate'), body: json, text };
  };
  const follow = (bearer: string | undefined, src: string, dst: string, type = 'follows') => call(service.url, '/v1/mutations', bearer, { op: 'ADD_EDGE', type, src, dst });

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'apiauth' });
    issuer = await createTestIssuer();
    pipeline = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, stages: ['fanout', 'repair'], tuning: { progressIntervalMs: 600_000 } });
    await pipeline.start();
    service = await start({ auth: issuer.auth, rateLimitMax: 100_000, readYourWritesTimeoutMs: 15_000, offsetPollIntervalMs: 50 });
  });

  afterAll(async () => {
    for (const s of services) await s.stop().catch(() => undefined);
    await pipeline?.stop().catch(() => undefined);
    issuer?.dispose();
    await env?.teardown();
  });

  it('answers a request without a token, with an expired one, one signed by another key or for another audience, 401 problem+json with a Bearer challenge', async () => {
    const cases: [string, string | undefined, RegExp][] = [
      ['no token', undefined, /Authorization: Bearer/],
      ['expired', await token({ expiresIn: -600 }), /expired/],
      ['signed by a key the server does not trust', await token({ foreignKey: true }), /signature/],
      ['for another audience', await token({ audience: 'someone-else' }), /claim aud/],
      ['not a JWT', 'not.a.jwt', /not a signed JWT/],
    ];
    for (const [what, bearer, detail] of cases) {
      for (const r of [await call(service.url, `/v1/vertices/${v('x')}/out/follows`, bearer), await follow(bearer, v('x'), v('y'))]) {
        expect({ what, status: r.status, type: r.type }).toEqual({ what, status: 401, type: expect.stringContaining('application/problem+json') });
        expect({ what, detail: r.body['detail'] }).toEqual({ what, detail: expect.stringMatching(detail) });
        expect(r.body).toMatchObject({ type: 'urn:edgestream:problem:unauthorized', status: 401 });
        expect(r.challenge).toMatch(bearer === undefined ? /^Bearer realm="edgestream"$/ : /^Bearer realm="edgestream", error="invalid_token"/);
      }
    }
    const metrics = (await call(service.url, '/metrics')).text;
    for (const reason of ['missing', 'expired', 'bad_signature', 'invalid_claims', 'malformed']) expect(metrics).toMatch(new RegExp(`edgestream_http_auth_failures_total\\{reason="${reason}"\\} [1-9]`));
  });

  it('answers a token without the scope 403 naming it: a read without read, a write without write, a write to an edge type outside write:<type>', async () => {
    const writer = await token({ scope: 'write' });
    const reader = await token({ scope: 'read' });
    const followsOnly = await token({ scope: 'read write:follows' });
    const read = await call(service.url, `/v1/vertices/${v('x')}/out/follows`, writer);
    expect(read).toMatchObject({ status: 403, type: expect.stringContaining('application/problem+json'), body: { type: 'urn:edgestream:problem:forbidden', scope: 'read' } });
    expect(read.challenge).toMatch(/error="insufficient_scope", scope="read"/);
    expect(await follow(reader, v('r'), v('s'))).toMatchObject({ status: 403, body: { scope: 'write' } });
    const likes = await follow(followsOnly, v('r'), v('s'), 'likes');
    expect(likes).toMatchObject({ status: 403, body: { scope: 'write:likes', detail: expect.stringContaining('edge type likes') } });
    const removeNode = await call(service.url, '/v1/mutations', followsOnly, { op: 'REMOVE_NODE', vertex: v('r') });
    expect(removeNode).toMatchObject({ status: 403, body: { scope: 'write' } });
    // the scope it has works, and a read with read sees the write
    const written = await follow(followsOnly, v('r'), v('s'));
    expect(written.status).toBe(202);
    const edge = await call(service.url, `/v1/edges/follows/${v('r')}/${v('s')}?after=${String(written.body['token'])}`, followsOnly);
    expect(edge).toMatchObject({ status: 200, body: { state: 'ACTIVE', mutationId: written.body['mutationId'] } });
    expect(await call(service.url, `/v1/edges/likes/${v('r')}/${v('s')}`, followsOnly)).toMatchObject({ status: 404 });
  });

  it('keeps /healthz, /readyz and (with server.auth.metrics open) /metrics open; with metrics authenticated /metrics needs a token (here from a JWKS file)', async () => {
    expect((await call(service.url, '/healthz')).status).toBe(200);
    expect(await call(service.url, '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
    expect((await call(service.url, '/metrics')).status).toBe(200);
    const closed = await start({ auth: { mode: 'jwt', jwt: { ...issuer.auth.jwt, publicKeyFile: undefined, jwksFile: issuer.jwksFile }, metrics: 'authenticated' } });
    expect(await call(closed.url, '/metrics')).toMatchObject({ status: 401 });
    expect((await call(closed.url, '/metrics', await token({ scope: '' }))).status).toBe(200);
    expect((await call(closed.url, '/readyz')).status).toBe(200);
  });

  it('tells only an admin why a consistency token is refused (topic, partitions, offsets); others get the status alone', async () => {
    const reader = await token({ scope: 'read' });
    const adminToken = await token({ scope: 'read admin' });
    const withoutInstance = (body: Record<string, unknown>) => JSON.stringify({ ...body, instance: undefined });
    // a token for another topic: the admin learns which topic this server serves, no one else does
    const elsewhere = await call(service.url, '/v1/edges/follows/a/b?after=elsewhere.edge-mutations:0:1', reader);
    expect(elsewhere).toMatchObject({ status: 409, body: { type: 'urn:edgestream:problem:unknown-consistency-token', 'invalid-params': [{ name: 'after' }] } });
    expect(withoutInstance(elsewhere.body)).not.toContain(env.topics.input);
    expect((await call(service.url, '/v1/edges/follows/a/b?after=elsewhere.edge-mutations:0:1', adminToken)).body['detail']).toContain(`serves topic ${env.topics.input}`);
    // a token past the end of a partition: the admin learns the end offset, no one else does
    const forged = `${env.topics.input}:0:999999999`;
    const plain = await call(service.url, `/v1/edges/follows/a/b?after=${forged}`, reader);
    expect(plain).toMatchObject({ status: 409 });
    expect(withoutInstance(plain.body)).not.toMatch(/ends at offset|partition/);
    const admin = await call(service.url, `/v1/edges/follows/a/b?after=${forged}`, adminToken);
    expect(admin).toMatchObject({ status: 409, body: { detail: expect.stringMatching(new RegExp(`${env.topics.input.replace(/\./g, '\\.')}/0 ends at offset \\d+`)) } });
  });

  it('rate limits per authenticated principal: one subject past server.rateLimitMax gets 429 while another from the same address does not', async () => {
    const limited = await start({ auth: issuer.auth, rateLimitMax: 3, rateLimitWindowMs: 60_000 });
    const alice = await token({ sub: 'alice', scope: 'read' });
    const bob = await token({ sub: 'bob', scope: 'read' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(limited.url, `/v1/vertices/${v('x')}/out/follows`, alice)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await call(limited.url, `/v1/vertices/${v('x')}/out/follows`, bob)).status).toBe(200);
  });

  it('never writes a token into a log line (every server of this file logged at trace level)', () => {
    expect(tokensUsed.length).toBeGreaterThan(5);
    const log = logLines.join('');
    expect(log).toMatch(/request not authenticated/); // the failures were logged …
    expect(log).toMatch(/"reason":"forbidden"/);
    for (const t of tokensUsed) {
      expect(log.includes(t)).toBe(false); // … without their tokens (nor their signatures alone)
      expect(log.includes(t.split('.')[2] ?? t)).toBe(false);
    }
  });
});
