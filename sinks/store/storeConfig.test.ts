import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isStoreError } from './StoreError.ts';
import { namespacesSchema, parseConfig, resolveNamespaces, valueLimitsSchema } from './storeConfig.ts';

const schema = z.strictObject({ namespaces: namespacesSchema, ...valueLimitsSchema.shape });

describe('store config', () => {
  it('fills in value limits and resolves them per namespace', () => {
    const parsed = parseConfig(
      schema,
      { namespaces: [{ name: 'links_out', chunking: false }, { name: 'props', chunkBytes: 1024 }, { name: 'marks', chunking: false, resurrectionSafe: true }] },
      'test',
    );
    expect(resolveNamespaces(parsed.namespaces, parsed)).toEqual([
      { name: 'links_out', chunking: false, maxInlineValueBytes: 262_144, chunkBytes: 262_144, maxValueBytes: 262_144, resurrectionSafe: false },
      { name: 'props', chunking: true, maxInlineValueBytes: 262_144, chunkBytes: 1024, maxValueBytes: 67_108_864, resurrectionSafe: false },
      { name: 'marks', chunking: false, maxInlineValueBytes: 262_144, chunkBytes: 262_144, maxValueBytes: 262_144, resurrectionSafe: true },
    ]);
  });

  it('throws a non-retriable invalid_config naming every bad field', () => {
    try {
      parseConfig(schema, { namespaces: [{ name: 'ok' }, { name: 'Bad' }], chunkBytes: 0, extra: true }, 'test config');
      expect.unreachable();
    } catch (e) {
      expect(isStoreError(e) && e.code).toBe('invalid_config');
      expect(isStoreError(e) && e.retriable).toBe(false);
      const message = (e as Error).message;
      expect(message).toMatch(/^invalid test config: /);
      expect(message).toMatch(/namespaces\.1\.name: must match/);
      expect(message).toMatch(/chunkBytes: /);
      expect(message).toMatch(/Unrecognized key/);
    }
  });
});
