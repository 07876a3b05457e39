import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { EdgeReader, NeighbourPageOptions } from '../reads/index.ts';
import { defaultEdgestreamConfig, type EdgestreamConfigInput } from '../schemas/config/edgestreamConfig.ts';
import type { EdgeProducer } from '../streams/producer/index.ts';
import type { ConsistencyGate } from './consistency/createConsistencyGate.ts';
import { createEdgeServer, type EdgeServer } from './createEdgeServer.ts';
import type { ReadinessCheck } from './routes/opsRoutes.ts';

/** A reader whose neighbour pages wait until the test releases them, keeping each call's signal. */
function heldReader() {
  const held: { release: () => void; signal: AbortSignal | undefined }[] = [];
  const out = (_type: string, _vertex: string, options: NeighbourPageOptions) =>
    new Promise((resolve) => held.push({ release: () => resolve({ items: [] }), signal: options.signal }));
  return { held, reader: { out } as unknown as EdgeReader };
}

const gate: ConsistencyGate = { waitFor: async () => ({ kind: 'visible' }), waiting: 0, close: () => {} };
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

/**
 * The server's own bounds over real HTTP on loopback (fakes behind it): the
 * cached /readyz, the budget on reads in flight, cancellation of a read whose
 * client left, and the refusal to serve unauthenticated beyond loopback.
 */
describe('createEdgeServer: bounds against hostile request patterns', { timeout: 30_000 }, () => {
  let server: EdgeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const serve = async (serverConfig: NonNullable<EdgestreamConfigInput['server']>, reader: EdgeReader = {} as EdgeReader, readiness: ReadinessCheck[] = [], edgeTypes: readonly string[] = ['follows', 'likes']) => {
    server = await createEdgeServer({ reader, producer: {} as EdgeProducer, gate, readiness, limits: defaultEdgestreamConfig({ server: serverConfig }).server, edgeTypes, logger: pino({ level: 'silent' }) });
    return server.listen(0, '127.0.0.1');
  };

  it('/readyz probes its dependencies once per server.readinessCacheMs, however many ask at once or after', async () => {
    let probes = 0;
    const check: ReadinessCheck = { name: 'kafka', check: async () => void probes++ };
    const base = await serve({ readinessCacheMs: 60_000 }, undefined, [check]);
    const burst = await Promise.all(Array.from({ length: 20 }, () => fetch(`${base}/readyz`).then((r) => r.status)));
    for (let i = 0; i < 5; i++) expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(burst.every((s) => s === 200)).toBe(true);
    expect(probes).toBe(1);
  });

  it('a read beyond server.maxReadsInFlight is 503 problem+json with Retry-After; the slots free again once reads finish', async () => {
    const { held, reader } = heldReader();
    const base = await serve({ maxReadsInFlight: 2 }, reader);
    const first = [fetch(`${base}/v1/vertices/a/out/follows`), fetch(`${base}/v1/vertices/b/out/follows`)];
    await until(() => held.length === 2);
    const shed = await fetch(`${base}/v1/vertices/c/out/follows`);
    expect(shed.status).toBe(503);
    expect(shed.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(shed.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await shed.json()).toMatchObject({ type: 'urn:edgestream:problem:overloaded', detail: expect.stringContaining('server.maxReadsInFlight') });
    for (const h of held.splice(0)) h.release();
    expect((await Promise.all(first)).map((r) => r.status)).toEqual([200, 200]);
    const again = fetch(`${base}/v1/vertices/d/out/follows`);
    await until(() => held.length === 1);
    held[0]?.release();
    expect((await again).status).toBe(200);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/edgestream_http_shed_total\{bound="reads_in_flight"\} 1/);
  });

  it('aborts the reader call of a read whose client went away (the reader then issues no further query)', async () => {
    const { held, reader } = heldReader();
    const base = await serve({}, reader);
    const client = new AbortController();
    const pending = fetch(`${base}/v1/vertices/a/out/follows`, { signal: client.signal }).catch(() => 'aborted');
    await until(() => held.length === 1);
    expect(held[0]?.signal?.aborted).toBe(false);
    client.abort();
    expect(await pending).toBe('aborted');
    await until(() => held[0]?.signal?.aborted === true);
    held[0]?.release();
  });

  it('refuses to listen beyond loopback without authentication, naming server.auth.allowUnauthenticated; serves when it is set', async () => {
    const limits = (auth: NonNullable<EdgestreamConfigInput['server']>['auth']) => defaultEdgestreamConfig({ server: { auth } }).server;
    server = await createEdgeServer({ reader: {} as EdgeReader, producer: {} as EdgeProducer, gate, readiness: [], edgeTypes: ['follows'], limits: limits({}), logger: pino({ level: 'silent' }) });
    await expect(server.listen(0, '0.0.0.0')).rejects.toThrow(/server\.auth\.mode is 'none'.*0\.0\.0\.0.*server\.auth\.allowUnauthenticated: true/);
    await server.close();
    server = await createEdgeServer({ reader: {} as EdgeReader, producer: {} as EdgeProducer, gate, readiness: [], edgeTypes: ['follows'], limits: limits({ allowUnauthenticated: true }), logger: pino({ level: 'silent' }) });
    const base = await server.listen(0, '0.0.0.0');
    expect((await fetch(base.replace('0.0.0.0', '127.0.0.1') + '/healthz')).status).toBe(200);
  });
  it('takes a vertex id of 4096 characters in the path (fastify\'s default cut at 100), answers a malformed URL with problem+json, and a URL over 16 KiB 431', async () => {
    const reader = { out: async () => ({ items: [] }) } as unknown as EdgeReader;
    const base = await serve({}, reader);
    expect((await fetch(`${base}/v1/vertices/${'v'.repeat(4_096)}/out/follows`)).status).toBe(200);
    const malformed = await fetch(`${base}/v1/vertices/%zz/out/follows`);
    expect({ status: malformed.status, type: malformed.headers.get('content-type') }).toEqual({ status: 400, type: expect.stringContaining('application/problem+json') });
    // a URL past Node's 16 KiB header limit is answered 431 by Node itself (documented in the OpenAPI description)
    expect((await fetch(`${base}/v1/vertices/${'%C3%A9'.repeat(3_000)}/out/follows`)).status).toBe(431);
  });

  it("takes only the config's edge types: /openapi.json lists them as an enum, a path or body naming another is 400 naming the parameter and the valid ones", async () => {
    const reader = { out: async () => ({ items: [] }) } as unknown as EdgeReader;
    const base = await serve({}, reader, [], ['follows', 'mentions']);
    type Schema = { enum?: string[]; items?: Schema; oneOf?: { properties: { type?: Schema } }[] };
    type Op = { parameters: { name: string; schema: Schema }[]; requestBody: { content: { 'application/json': { schema: Schema } } } };
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, Op>> };
    const param = (path: string, name: string) => doc.paths[path]?.['get']?.parameters.find((p) => p.name === name)?.schema;
    expect(param('/v1/vertices/{vertex}/out/{type}', 'type')?.enum).toEqual(['follows', 'mentions']);
    expect(param('/v1/vertices/{vertex}/traversal', 'hops')?.items?.enum).toEqual(['follows:out', 'follows:in', 'mentions:out', 'mentions:in']);
    const variants = doc.paths['/v1/mutations']?.['post']?.requestBody.content['application/json'].schema.oneOf ?? [];
    expect(variants.filter((v) => v.properties.type).map((v) => v.properties.type?.enum)).toEqual(Array(6).fill(['follows', 'mentions']));

    expect((await fetch(`${base}/v1/vertices/a/out/mentions`)).status).toBe(200);
    const path = await fetch(`${base}/v1/vertices/a/out/likes`);
    expect({ status: path.status, body: await path.json() }).toMatchObject({ status: 400, body: { 'invalid-params': [{ name: 'type', in: 'path', reason: 'must be one of: follows, mentions' }] } });
    const hop = await fetch(`${base}/v1/vertices/a/traversal?hops=likes:out`);
    expect({ status: hop.status, body: await hop.json() }).toMatchObject({ status: 400, body: { 'invalid-params': [{ name: 'hops.0', in: 'query' }] } });
    const body = await fetch(`${base}/v1/mutations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ op: 'ADD_EDGE', type: 'likes', src: 'a', dst: 'b' }) });
    expect({ status: body.status, body: await body.json() }).toMatchObject({ status: 400, body: { 'invalid-params': [{ name: 'type', in: 'body', reason: 'must be one of: follows, mentions' }] } });
  });

  it('sends no CORS headers (CORS is off): a cross-origin read gets no Access-Control-Allow-Origin, a preflight routes nowhere', async () => {
    const reader = { out: async () => ({ items: [] }) } as unknown as EdgeReader;
    const base = await serve({}, reader);
    const read = await fetch(`${base}/v1/vertices/a/out/follows`, { headers: { origin: 'https://elsewhere.example' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${base}/v1/mutations`, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' } });
    expect({ status: preflight.status, allow: preflight.headers.get('access-control-allow-origin') }).toEqual({ status: 404, allow: null });
  });

  it('cuts a client that trickles its request body slower than server.requestTimeoutMs (408, connection closed)', async () => {
    const base = await serve({ requestTimeoutMs: 1_000 });
    const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('POST /v1/mutations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{');
    let sent = 0;
    const trickle = setInterval(() => void (socket.writable && sent++ < 200 && socket.write(' ')), 100);
    await closed;
    clearInterval(trickle);
    expect(sent).toBeLessThan(200); // cut before the body was complete
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  const openssl = (() => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!openssl)('serves HTTPS with server.tls (a certificate made now by openssl), and names the field of a missing file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-tls-'));
    const [certFile, keyFile] = [path.join(dir, 'server.pem'), path.join(dir, 'server.key')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
    try {
      const base = await serve({ tls: { certFile, keyFile } });
      expect(base).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const status = await new Promise<number | undefined>((resolve, reject) => https.get(`${base}/healthz`, { ca: fs.readFileSync(certFile) }, (r) => resolve(r.statusCode)).on('error', reject));
      expect(status).toBe(200);
      await expect(serve({ tls: { certFile: path.join(dir, 'absent.pem'), keyFile } })).rejects.toThrow(/^server\.tls\.certFile: cannot read/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
