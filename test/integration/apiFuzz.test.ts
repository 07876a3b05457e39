import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../cli/commandContext.ts';
import { startEdgeService, type RunningService } from '../../cli/commands/serve.ts';
import { parseEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { createTestIssuer, type TestIssuer } from '../../server/auth/testing/createTestIssuer.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { REPO_ROOT } from '../support/processorProcess.ts';

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

const doc = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, DocOperation>> };
const operations = Object.entries(doc.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ template, method: method.toUpperCase(), op, [fc.toStringMethod]: () => `${method.toUpperCase()} ${template}` })),
);
/** Answered by Node before the server sees the request (docs/openapi.json's description says so): no problem+json. */
const NODE_STATUSES = [431];

/** Values within the schema and well beyond it: the edge types the config declares, ids, numbers, tokens, junk, huge. */
const anyText = fc.oneof(
  fc.constantFrom('follows', 'likes', 'blocks', 'Follows', 'follows:out', 'likes:in', 'x:sideways', '0', '-1', '20', '10001', '9223372036854775808', 'newest', 'peer', 'out', 'in', ''),
  fc.constantFrom('t.edge-mutations:0:1', 'a:1:99999999999999999999', '%', '%zz', '..', '../../etc', 'a/b', '\u0000', '\ud800', 'é'.repeat(3000)),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map(String),
  fc.nat({ max: 6_000 }).map((n) => 'v'.repeat(n)),
);

/** A mutation body: schema-shaped with random fields and values, or any JSON, or not JSON. */
const body = fc.oneof(
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

const request = fc.record({
  operation: fc.constantFrom(...operations),
  pathValues: fc.array(anyText, { minLength: 5, maxLength: 5 }),
  encodePath: fc.boolean(),
  query: fc.array(fc.tuple(fc.nat({ max: 10 }), anyText), { maxLength: 5 }),
  extraQuery: fc.option(fc.tuple(fc.string({ maxLength: 8 }), anyText), { nil: undefined }),
  body,
  contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined),
  auth: fc.constantFrom('valid', 'valid', 'valid', 'none', 'garbage', 'readOnly', 'followsOnly'),
});

/**
 * Property-based fuzz of the running server (real stack, bearer auth on) from its own
 * OpenAPI document: random operations with parameters within and beyond their schemas, random
 * bodies, tokens and content types. Every answer must be a status the document lists for the
 * operation (404 for a request that routes nowhere), problem+json when it is an error, never a 500,
 * within 10 s.
 */
describe('fuzzing the HTTP API from docs/openapi.json', () => {
  let env: EdgestreamEnv;
  let issuer: TestIssuer;
  let service: RunningService;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'apifuzz' });
    issuer = await createTestIssuer();
    const ctx: CommandContext = {
      config: parseEdgestreamConfig({ ...env.configInput, server: { auth: issuer.auth, rateLimitMax: 1_000_000, readYourWritesTimeoutMs: 200 } }, 'test config'),
      endpoints: env.endpoints,
      kafka: env.kafka,
      registry: env.registry,
      logger: env.logger,
      store: async () => env.store,
    };
    service = await startEdgeService(ctx, { port: 0, host: '127.0.0.1' });
    tokens['valid'] = await issuer.sign({ scope: 'read write admin' });
    tokens['readOnly'] = await issuer.sign({ scope: 'read' });
    tokens['followsOnly'] = await issuer.sign({ scope: 'read write:follows' });
  });

  afterAll(async () => {
    await service?.stop().catch(() => undefined);
    issuer?.dispose();
    await env?.teardown();
  });

  it('answers every request with a documented status and problem+json, never 500', async () => {
    const seen = new Map<number, number>();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        runs++;
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
        const url = `${service.url}${pathPart}${search.size > 0 ? `?${search}` : ''}`;
        const res = await fetch(url, { method: r.operation.method, headers, ...(post ? { body: r.body } : {}), signal: AbortSignal.timeout(10_000) });
        const text = await res.text();
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        const documented = [...Object.keys(r.operation.op.responses).map(Number), 404, ...NODE_STATUSES];
        const what = `${r.operation.method} ${url.slice(0, 300)} (auth ${r.auth}) → ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, what).not.toBe(500);
        expect(documented, what).toContain(res.status);
        if (res.status >= 400 && r.operation.template !== '/metrics' && !NODE_STATUSES.includes(res.status)) expect(res.headers.get('content-type'), what).toContain('application/problem+json');
      }),
      { numRuns: 1_000, interruptAfterTimeLimit: 35_000 },
    );
    console.log(`[apiFuzz] ${runs} requests; statuses ${JSON.stringify(Object.fromEntries([...seen].sort(([a], [b]) => a - b)))}`);
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  });
});
