import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openApiDocument.ts';
import { API_VERSION, OPENAPI_FILE } from './openApiFile.ts';
import { operations } from './operations.ts';

describe('the OpenAPI document', () => {
  it('is the checked-in docs/openapi.json (run `npm run openapi` after changing the API)', () => {
    expect(JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8'))).toEqual(JSON.parse(JSON.stringify(openApiDocument(API_VERSION))));
  });

  it('declares every path parameter of every templated path, and only those', () => {
    const doc = openApiDocument(API_VERSION) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    for (const [path, methods] of Object.entries(doc.paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const op of Object.values(methods)) expect((op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort()).toEqual(templated);
    }
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(Object.values(operations).map((o) => o.path)));
  });
});
