import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openApiDocument.ts';
import { API_VERSION, DOCUMENTED_EDGE_TYPES, OPENAPI_FILE } from './openApiFile.ts';
import { operations } from './operations.ts';

describe('the OpenAPI document', () => {
  it('is the checked-in docs/openapi.json (run `npm run openapi` after changing the API)', () => {
    expect(JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8'))).toEqual(JSON.parse(JSON.stringify(openApiDocument(API_VERSION, DOCUMENTED_EDGE_TYPES))));
  });

  it('declares every path parameter of every templated path, and only those', () => {
    const doc = openApiDocument(API_VERSION, DOCUMENTED_EDGE_TYPES) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    for (const [path, methods] of Object.entries(doc.paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const op of Object.values(methods)) expect((op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort()).toEqual(templated);
    }
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(Object.values(operations).map((o) => o.path)));
  });

  it('lists the edge types it is given as an enum of every edge-type parameter, body field and hop, and nowhere else', () => {
    const text = JSON.stringify(openApiDocument(API_VERSION, ['follows', 'mentions']));
    const enums = [...text.matchAll(/"enum":(\[[^\]]*\])/g)].map((m) => m[1]);
    const types = enums.filter((e) => e?.includes('mentions'));
    // 8 path parameters (every operation but traversal and the mutation), 6 mutation variants' `type`, the traversal's hops
    expect(types.filter((e) => e === '["follows","mentions"]')).toHaveLength(14);
    expect(types.filter((e) => e === '["follows:out","follows:in","mentions:out","mentions:in"]')).toHaveLength(1);
    expect(types).toHaveLength(15);
    expect(text).not.toContain('"pattern":"^[a-z][a-z0-9_]*:(out|in)$"');
  });

  it("documents every status the server or Node can answer: Node's 408 and 431 on every operation, Retry-After on 429 and 503, the Bearer challenge on 401", () => {
    type Responses = Record<string, { headers?: Record<string, unknown> }>;
    const doc = openApiDocument(API_VERSION, DOCUMENTED_EDGE_TYPES) as { paths: Record<string, Record<string, { security: unknown[]; responses: Responses }>> };
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const where = `${method} ${path}`;
        expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['408', '431']));
        if (path.startsWith('/v1/')) expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['400', '401', '403', '429', '503']));
        if (path === '/v1/mutations') expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['413', '415']));
        else if (path.startsWith('/v1/')) expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['409', '414']));
        for (const status of ['429', '503']) if (op.responses[status]) expect(op.responses[status].headers, `${where} ${status}`).toHaveProperty('Retry-After');
        if (op.responses['401']) expect(op.responses['401'].headers, `${where} 401`).toHaveProperty('WWW-Authenticate');
      }
    }
  });
});
