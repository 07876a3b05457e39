import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIssuer, type TestIssuer } from '../../server/auth/testing/createTestIssuer.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { startServeProcess, type ServeProcess } from '../support/serveProcess.ts';

interface DocParameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly schema: { readonly type?: string; readonly enum?: readonly string[]; readonly pattern?: string; readonly items?: { readonly pattern?: string } };
}
interface DocOperation {
  readonly parameters?: readonly DocParameter[];
  readonly requestBody?: unknown;
  readonly responses: Readonly<Record<string, unknown>>;
}

interface ApiDocument {
  readonly paths: Record<string, Record<string, DocOperation>>;
}

/** The operations of a document, each a fast-check value that prints as `GET /v1/...`. */
const operationsOf = (doc: ApiDocument) =>
  Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ template, method: method.toUpperCase(), op, [fc.toStringMethod]: () => `${method.toUpperCase()} ${template}` })),
  );
/** Every `type` parameter of the document's operations. */
const typeParamsOf = (doc: ApiDocument) => Object.values(doc.paths).flatMap((methods) => Object.values(methods).flatMap((op) => (op.parameters ?? []).filter((p) => p.name === 'type')));

/** Answered by Node before the server sees the request (the document says so): no problem+json. */
const NODE_STATUSES = [408, 431];

/** The edge types the server's config declares (not the defaults of the checked-in docs/openapi.json). */
const EDGE_TYPES = ['follows', 'likes', 'mentions'];

/** Values within the schema and well beyond it: the edge types the document declares, ids, numbers, tokens, junk, huge. */
const textWith = (edgeTypes: readonly string[]) => fc.oneof(
  fc.constantFrom(...edgeTypes, ...edgeTypes.flatMap((t) => [`${t}:out`, `${t}:in`])),
  fc.constantFrom('blocks', 'Follows', 'x:sideways', '0', '-1', '20', '10001', '9223372036854775808', 'newest', 'peer', 'out', 'in', ''),
  fc.constantFrom('t.edge-mutations:0:1', 'a:1:99999999999999999999', '%', '%zz', '..', '../../etc', 'a/b', '\u0000', '\ud800', 'é'.repeat(3000)),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map(String),
  fc.nat({ max: 6_000 }).map((n) => 'v'.repeat(n)),
);

/** A mutation body: schema-shaped with random fields and values, or any JSON, or not JSON. */
const bodyWith = (anyText: fc.Arbitrary<string>) => fc.oneof(
  fc.record(
    {
      op: fc.constantFrom('ADD_EDGE', 'REMOVE_EDGE', 'HIDE_EDGE', 'UNHIDE_EDGE', 'SET_PROPERTIES', 'REMOVE_PROPERTIES', 'REMOVE_NODE', 'MERGE'),
      type: anyText,
      src: anyText,
      dst: anyText,
      vertex: anyText,
      properties: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
      keys: fc.array(anyText, { maxLength: 3 }),
      eventTime: fc.oneof(anyText, fc.integer()),
      edgeTime: fc.oneof(anyText, fc.integer()),
      data: anyText,
      mutationId: anyText,
    },
    { requiredKeys: ['op'] },
  ).map((b) => JSON.stringify(b)),
  fc.jsonValue({ maxDepth: 3 }).map((j) => JSON.stringify(j)),
  fc.string({ maxLength: 100 }),
);

/** A request to one of the document's operations, its parameters drawn within and beyond their schemas. */
const requestOf = (doc: ApiDocument, edgeTypes: readonly string[]) => {
  const anyText = textWith(edgeTypes);
  return fc.record({
    operation: fc.constantFrom(...operationsOf(doc)),
    pathValues: fc.array(anyText, { minLength: 5, maxLength: 5 }),
    encodePath: fc.boolean(),
    query: fc.array(fc.tuple(fc.nat({ max: 10 }), anyText), { maxLength: 5 }),
    extraQuery: fc.option(fc.tuple(fc.string({ maxLength: 8 }), anyText), { nil: undefined }),
    body: bodyWith(anyText),
    contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined),
    auth: fc.constantFrom('valid', 'valid', 'valid', 'none', 'garbage', 'readOnly', 'followsOnly'),
  });
};

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
/** Requests before the first memory sample (code compiled, caches and pools filled), then one GC + sample every SAMPLE_EVERY. */
const WARM_UP = 200;
const SAMPLE_EVERY = 25;
/** Growth of the server's RSS (median of the last third of the samples over the first third) the test tolerates. */
const RSS_GROWTH_BOUND = 64 * 2 ** 20;

/** Writes `head`, then the body one byte every `everyMs`; resolves with what the server answered once it closes the connection. */
function trickle(url: string, head: string, body: string, everyMs: number): Promise<{ answer: string; bytesSent: number }> {
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
  let answer = '';
  let bytesSent = 0;
  socket.on('data', (d: Buffer) => (answer += d.toString()));
  socket.on('error', () => undefined); // a reset after the 408 is the server closing, as asked
  socket.write(head);
  const timer = setInterval(() => {
    if (socket.writable && bytesSent < body.length) socket.write(body[bytesSent++] ?? '');
  }, everyMs);
  return new Promise((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, bytesSent });
    }),
  );
}

/**
 * Property-based fuzz of `edgestream serve` (a child process on the real stack, bearer auth on)
 * from the OpenAPI document it serves for its config (its three edge types as the enum): random
 * operations with parameters within and beyond their schemas, random bodies, tokens and content
 * types. Every answer must be a status the document lists for the operation (404 for a request
 * that routes nowhere), problem+json when it is an error, never a 500, within 10 s; the server's
 * RSS (read in the server over the inspector, after a forced GC) must not grow beyond
 * RSS_GROWTH_BOUND from the first third of the run to the last. The server runs apart so that the
 * memory measured is its own, not the test's. Then a slow client and oversized headers.
 */
describe('fuzzing the HTTP API from the OpenAPI document the server serves', () => {
  let env: EdgestreamEnv;
  let issuer: TestIssuer;
  let server: ServeProcess;
  let doc: ApiDocument;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-apifuzz-'));
  const tokens: Record<string, string> = {};
  const REQUEST_TIMEOUT_MS = 2_000;

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'apifuzz', edgeTypes: EDGE_TYPES });
    issuer = await createTestIssuer();
    const configFile = path.join(dir, 'edgestream.config.json');
    const serverConfig = { auth: issuer.auth, rateLimitMax: 1_000_000, readYourWritesTimeoutMs: 200, requestTimeoutMs: REQUEST_TIMEOUT_MS };
    fs.writeFileSync(configFile, JSON.stringify({ ...env.configInput, server: serverConfig }));
    server = await startServeProcess({ configFile, env: endpointsToEnv(env.endpoints) });
    doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as ApiDocument;
    tokens['valid'] = await issuer.sign({ scope: 'read write admin' });
    tokens['readOnly'] = await issuer.sign({ scope: 'read' });
    tokens['followsOnly'] = await issuer.sign({ scope: 'read write:follows' });
  });

  afterAll(async () => {
    const code = await server?.stop();
    if (code !== 0) console.log(`[apiFuzz] serve exited ${code}:\n${server?.tail()}`);
    issuer?.dispose();
    await env?.teardown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the document of its config: the edge types it declares, as the enum of every edge-type parameter', () => {
    const typeParams = typeParamsOf(doc);
    expect(typeParams.length).toBeGreaterThan(0);
    for (const p of typeParams) expect(p.schema.enum).toEqual(EDGE_TYPES);
  });

  it('answers every request with a documented status and problem+json, never 500, and its RSS stays flat', async () => {
    const seen = new Map<number, number>();
    const samples: number[] = [];
    let runs = 0;
    const sample = async () => {
      await server.collectGarbage();
      samples.push(await server.rss());
    };
    const rssAtStart = await server.rss();
    await fc.assert(
      // the edge types a client learns from the document
      fc.asyncProperty(requestOf(doc, typeParamsOf(doc)[0]?.schema.enum ?? []), async (r) => {
        runs++;
        if (runs >= WARM_UP && (runs - WARM_UP) % SAMPLE_EVERY === 0) await sample();
        let i = 0;
        const pathPart = r.operation.template.replace(/\{\w+\}/g, () => {
          const value = r.pathValues[i++] ?? '';
          if (!r.encodePath) return value;
          try {
            return encodeURIComponent(value);
          } catch {
            return value; // a lone surrogate cannot be percent-encoded: sent as is
          }
        });
        const params = r.operation.op.parameters?.filter((p) => p.in === 'query') ?? [];
        const search = new URLSearchParams();
        for (const [index, value] of r.query) {
          const p = params[index % Math.max(1, params.length)];
          if (p) search.append(p.name, value);
        }
        if (r.extraQuery) search.append(...r.extraQuery);
        const headers: Record<string, string> = {};
        if (r.auth === 'garbage') headers['authorization'] = 'Bearer not-a-token';
        else if (r.auth !== 'none') headers['authorization'] = `Bearer ${tokens[r.auth]}`;
        const post = r.operation.method === 'POST';
        if (post && r.contentType) headers['content-type'] = r.contentType;
        const url = `${server.url}${pathPart}${search.size > 0 ? `?${search}` : ''}`;
        const res = await fetch(url, { method: r.operation.method, headers, ...(post ? { body: r.body } : {}), signal: AbortSignal.timeout(10_000) });
        const text = await res.text();
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        const documented = [...Object.keys(r.operation.op.responses).map(Number), 404];
        const what = `${r.operation.method} ${url.slice(0, 300)} (auth ${r.auth}) → ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, what).not.toBe(500);
        expect(documented, what).toContain(res.status);
        if (res.status >= 400 && r.operation.template !== '/metrics' && !NODE_STATUSES.includes(res.status)) expect(res.headers.get('content-type'), what).toContain('application/problem+json');
      }),
      { numRuns: 3_000, interruptAfterTimeLimit: 60_000 },
    );
    await sample();
    const third = Math.floor(samples.length / 3);
    const [first, last] = [median(samples.slice(0, third)), median(samples.slice(-third))];
    console.log(
      `[apiFuzz] ${runs} requests; statuses ${JSON.stringify(Object.fromEntries([...seen].sort(([a], [b]) => a - b)))}; server RSS: ${mib(rssAtStart)} before, ` +
        `${samples.length} samples after GC from request ${WARM_UP} on every ${SAMPLE_EVERY}: first third median ${mib(first)}, last third median ${mib(last)}, ` +
        `max ${mib(Math.max(...samples))}, after the run ${mib(samples.at(-1) ?? NaN)}`,
    );
    expect(third, 'too few requests for an RSS trend').toBeGreaterThanOrEqual(2);
    expect(last - first, `RSS grew from ${mib(first)} to ${mib(last)}`).toBeLessThan(RSS_GROWTH_BOUND);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('answers headers over 16 KiB 431 (a header or the URL), and keeps serving', async () => {
    const auth = { authorization: `Bearer ${tokens['valid']}` };
    expect((await fetch(`${server.url}/v1/vertices/a/out/follows`, { headers: { ...auth, 'x-padding': 'p'.repeat(20_000) } })).status).toBe(431);
    expect((await fetch(`${server.url}/v1/vertices/${'v'.repeat(17_000)}/out/follows`, { headers: auth })).status).toBe(431);
    const many = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`x-h${i}`, 'v'.repeat(40)]));
    expect((await fetch(`${server.url}/healthz`, { headers: many })).status).toBe(431);
    expect((await fetch(`${server.url}/v1/vertices/a/out/follows`, { headers: auth })).status).toBe(200);
  });

  it('cuts a client that trickles its body past server.requestTimeoutMs (408, connection closed), and keeps serving', { timeout: 60_000 }, async () => {
    const body = JSON.stringify({ op: 'ADD_EDGE', type: 'follows', src: 'slow', dst: 'client' }).padEnd(200, ' ');
    const head = `POST /v1/mutations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens['valid']}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // 200 bytes at one per 100 ms would take 20 s: ten times server.requestTimeoutMs
    const { answer, bytesSent } = await trickle(server.url, head, body, 100);
    expect(bytesSent).toBeLessThan(body.length);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    // headers trickled too: cut the same way
    const slowHead = await trickle(server.url, '', `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'s'.repeat(200)}\r\n\r\n`, 100);
    expect(slowHead.bytesSent).toBeLessThan(200);
    expect(slowHead.answer === '' || /^HTTP\/1\.1 408/.test(slowHead.answer), slowHead.answer).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
