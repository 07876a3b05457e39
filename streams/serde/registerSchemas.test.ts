import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { describe, expect, it } from 'vitest';
import { knownSchemas } from '../../schemas/index.ts';
import { registerSchemas } from './registerSchemas.ts';
import { SchemaRegistrationError } from './SchemaRegistrationError.ts';
import { registryResponseError } from './testHelpers/createStubSchemaRegistry.ts';

type Register = Pick<SchemaRegistry, 'register'>;

const failingWith = (error: unknown): Register => ({
  register: async () => {
    throw error;
  },
});

describe('registerSchemas', () => {
  it('registers each topic under <topic>-value with BACKWARD compatibility and the .avsc as sent', async () => {
    const calls: unknown[] = [];
    const registry: Register = {
      register: (async (schema: unknown, opts: unknown) => {
        calls.push({ schema, opts });
        return { id: 40 + calls.length };
      }) as Register['register'],
    };
    const registered = await registerSchemas(registry, {
      edges: knownSchemas.EdgeMutation,
      'wide-partitions': knownSchemas.WidePartitionDetected,
    });
    expect(registered).toEqual([
      { topic: 'edges', subject: 'edges-value', schemaId: 41 },
      { topic: 'wide-partitions', subject: 'wide-partitions-value', schemaId: 42 },
    ]);
    expect(calls[0]).toEqual({
      schema: { type: 'AVRO', schema: JSON.stringify(knownSchemas.EdgeMutation.avsc) },
      opts: { subject: 'edges-value', compatibility: 'BACKWARD' },
    });
  });

  it.each([
    ['HTTP 409', registryResponseError(409), 'INCOMPATIBLE_SCHEMA', false],
    ['HTTP 422', registryResponseError(422), 'INVALID_SCHEMA', false],
    [
      'a compatibility-level mismatch',
      Object.assign(new Error('Compatibility does not match the configuration (BACKWARD != NONE)'), {
        name: 'ConfluentSchemaRegistryCompatibilityError',
      }),
      'COMPATIBILITY_MISMATCH',
      false,
    ],
    ['connection refused (mappersmith status 400)', registryResponseError(400), 'REGISTRY_UNAVAILABLE', true],
    ['HTTP 503', registryResponseError(503), 'REGISTRY_UNAVAILABLE', true],
  ] as const)('maps %s to %s', async (_name, error, code, retriable) => {
    const e: unknown = await registerSchemas(failingWith(error), { edges: knownSchemas.EdgeMutation }).catch((x: unknown) => x);
    expect(SchemaRegistrationError.is(e)).toBe(true);
    expect(e).toMatchObject({ code, retriable, subject: 'edges-value', cause: error });
  });

  it('lets a non-registry error (a bug) through untouched', async () => {
    const bug = new TypeError('boom');
    await expect(registerSchemas(failingWith(bug), { edges: knownSchemas.EdgeMutation })).rejects.toBe(bug);
  });
});
