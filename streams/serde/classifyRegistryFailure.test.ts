import { describe, expect, it } from 'vitest';
import { classifyRegistryFailure } from './classifyRegistryFailure.ts';
import { registryResponseError } from './testHelpers/createStubSchemaRegistry.ts';

const named = (name: string): Error => Object.assign(new Error(name), { name });

describe('classifyRegistryFailure', () => {
  it.each([
    ['HTTP 404', registryResponseError(404), 'NOT_FOUND'],
    ['HTTP 409 (incompatible)', registryResponseError(409), 'CONFLICT'],
    ['HTTP 422 (invalid schema)', registryResponseError(422), 'INVALID_SCHEMA'],
    ['HTTP 400 (mappersmith: connection refused / timeout)', registryResponseError(400), 'UNAVAILABLE'],
    ['HTTP 401', registryResponseError(401), 'UNAVAILABLE'],
    ['HTTP 503', registryResponseError(503), 'UNAVAILABLE'],
    ['a compatibility-level mismatch', named('ConfluentSchemaRegistryCompatibilityError'), 'COMPATIBILITY_MISMATCH'],
    ['an unparsable schema', named('ConfluentSchemaRegistryArgumentError'), 'INVALID_SCHEMA'],
    ['a TypeError (a bug)', new TypeError('x is undefined'), undefined],
    ['a thrown string', 'boom', undefined],
  ] as const)('%s → %s', (_name, error, expected) => {
    expect(classifyRegistryFailure(error)).toBe(expected);
  });
});
