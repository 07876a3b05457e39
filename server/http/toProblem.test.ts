import { describe, expect, it } from 'vitest';
import { toProblem } from './toProblem.ts';

/** A fastify validation error as ajv reports it: `instancePath` is a JSON Pointer (RFC 6901), not percent-encoded. */
const validation = (instancePath: string) => Object.assign(new Error('body invalid'), {
  validation: [{ instancePath, keyword: 'required', message: "must have required property 'value'", params: {} }],
  validationContext: 'body',
});

describe('toProblem: schema validation errors', () => {
  it.each([
    ['a property named "%" (found by apiFuzz: decoding the pointer as a URI threw, a 500)', '/properties/%', 'properties.%'],
    ['a property named "%41", kept as written', '/properties/%41', 'properties.%41'],
    ['JSON Pointer escapes: ~1 is "/", ~0 is "~"', '/properties/a~1b~0c', 'properties.a/b~c'],
  ])('names the parameter of %s', (_, instancePath, name) => {
    const { problem, internal } = toProblem(validation(instancePath));
    expect(internal).toBe(false);
    expect(problem.status).toBe(400);
    expect(problem['invalid-params']).toEqual([{ name, in: 'body', reason: "must have required property 'value'" }]);
  });
});
