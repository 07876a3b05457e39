import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePropertyValue, type PropertyValue } from '../../sinks/namespaces/propertyValue.ts';
import { defaultEdgestreamConfig } from '../config/edgestreamConfig.ts';
import type { EdgeMutation } from '../generated/EdgeMutation.ts';
import { propertyValueBytes } from './propertyValueBytes.ts';
import { validateEdgeMutation } from './validateEdgeMutation.ts';

const config = defaultEdgestreamConfig({
  limits: { maxVertexIdBytes: 8, maxMutationIdBytes: 32, maxProperties: 2, maxPropertyNameBytes: 5, maxPropertyBagBytes: 24, maxFutureSkewMs: 1000 },
});
const NOW = 1_700_000_000_000_000n;
const AT = { wallClockMicros: NOW };

const add: EdgeMutation = {
  mutation_id: 'm1',
  op: 'ADD_EDGE',
  edge_type: 'follows',
  src: 'alice',
  dst: 'bob',
  event_time: NOW,
  properties: { since: 2020n },
  property_keys: [],
};
const removeNode: EdgeMutation = { ...add, op: 'REMOVE_NODE', edge_type: '', dst: '', properties: {} };
const removeProps: EdgeMutation = { ...add, op: 'REMOVE_PROPERTIES', properties: {}, property_keys: ['since'] };

/** A properties object carrying an own "__proto__" key, as a careful decoder would build it. */
const ownProto = (): EdgeMutation['properties'] => Object.defineProperty({}, '__proto__', { value: 1, enumerable: true });

describe('validateEdgeMutation', () => {
  it.each<[string, EdgeMutation]>([
    ['an ADD_EDGE with properties', add],
    ['a self-loop', { ...add, src: 'v', dst: 'v' }],
    ['a REMOVE_NODE with empty edge type and dst', removeNode],
    ['a REMOVE_PROPERTIES with keys', removeProps],
    ['a REMOVE_PROPERTIES with no keys (clears the bag)', { ...removeProps, property_keys: [] }],
    ['ids of exactly the byte limit', { ...add, src: 'ééé12', mutation_id: 'm'.padEnd(32, '0') }],
    ['event_time exactly at the future skew limit', { ...add, event_time: NOW + 1_000_000n }],
    ['null, boolean and double values', { ...add, properties: { a: null, b: true }, op: 'SET_PROPERTIES' }],
    ['a double and a string value', { ...add, properties: { c: 1.5, d: 'x' } }],
    ['NaN and bytes values', { ...add, properties: { n: NaN, b: Buffer.from([1]) } }],
  ])('accepts %s', (_, event) => {
    expect(validateEdgeMutation(event, config, AT)).toEqual({ ok: true, event });
  });

  it.each<[string, unknown, string, RegExp]>([
    ['an empty src', { ...add, src: '' }, 'src', /must not be empty/],
    ['a src over the byte limit (UTF-8 bytes, not characters)', { ...add, src: 'éééé1' }, 'src', /9 UTF-8 bytes, more than the 8/],
    ['U+0000 in dst', { ...add, dst: 'b\u0000b' }, 'dst', /U\+0000/],
    ['a lone surrogate in src', { ...add, src: 'a\ud800' }, 'src', /lone UTF-16 surrogate/],
    ['an empty dst on an edge op', { ...add, dst: '' }, 'dst', /must not be empty/],
    ['an unknown edge type', { ...add, edge_type: 'blocks' }, 'edge_type', /unknown edge type 'blocks'/],
    ['an empty edge type on an edge op', { ...add, edge_type: '' }, 'edge_type', /unknown edge type ''/],
    ['REMOVE_NODE with an edge type', { ...removeNode, edge_type: 'follows' }, 'edge_type', /must be empty for REMOVE_NODE/],
    ['REMOVE_NODE with a dst', { ...removeNode, dst: 'bob' }, 'dst', /must be empty for REMOVE_NODE/],
    ['an empty mutation id', { ...add, mutation_id: '' }, 'mutation_id', /must not be empty/],
    ['a mutation id over the limit', { ...add, mutation_id: 'm'.padEnd(33, '0') }, 'mutation_id', /33 UTF-8 bytes, more than the 32/],
    ['U+0000 in the mutation id', { ...add, mutation_id: 'm\u0000' }, 'mutation_id', /U\+0000/],
    ['too many properties', { ...add, properties: { a: 1n, b: 2n, c: 3n } }, 'properties', /3 properties, more than the 2/],
    ['a long property name', { ...add, properties: { abcdef: 1n } }, 'properties.abcdef', /6 UTF-8 bytes/],
    ['an empty property name', { ...add, properties: { '': 1n } }, 'properties.', /must not be empty/],
    ['the property name "constructor"', { ...add, properties: { constructor: 1n } }, 'properties.constructor', /reserved/],
    ['the property name "prototype"', { ...add, properties: { prototype: 1n } }, 'properties.prototype', /reserved/],
    ['an own "__proto__" property', { ...add, properties: ownProto() }, 'properties.__proto__', /reserved/],
    ['a "__proto__" decoded into the prototype', { ...add, properties: Object.setPrototypeOf({}, { x: 1 }) }, 'properties', /not a plain object/],
    ['a property bag over the byte limit', { ...add, properties: { a: 'x'.repeat(12), b: 'y'.repeat(9) } }, 'properties', /encodes to 25 bytes \(names \+ values\), more than the 24/],
    ['properties on REMOVE_EDGE', { ...add, op: 'REMOVE_EDGE' }, 'properties', /must be empty for REMOVE_EDGE/],
    ['properties on REMOVE_NODE', { ...removeNode, properties: { a: 1n } }, 'properties', /must be empty for REMOVE_NODE/],
    ['property_keys on SET_PROPERTIES', { ...add, op: 'SET_PROPERTIES', property_keys: ['a'] }, 'property_keys', /only REMOVE_PROPERTIES/],
    ['a reserved key to remove', { ...removeProps, property_keys: ['since', '__proto__'] }, 'property_keys.1', /reserved/],
    ['too many keys to remove', { ...removeProps, property_keys: ['a', 'b', 'c'] }, 'property_keys', /3 keys/],
    ['an event time before minEventTimeMicros', { ...add, event_time: 1_700_000_000n }, 'event_time', /before minEventTimeMicros/],
    ['an event time too far in the future', { ...add, event_time: NOW + 1_000_001n }, 'event_time', /1 µs beyond the skew window/],
    ['an event time above 2^63-1', { ...add, event_time: 2n ** 63n }, 'event_time', /above 2\^63-1/],
    ['a number event time (not a decoded long)', { ...add, event_time: 5 }, 'event_time', /bigint/i],
    ['an unknown op', { ...add, op: 'UPSERT' }, 'op', /./],
    ['a property value of a foreign type', { ...add, properties: { a: { nested: 1 } } }, 'properties.a', /./],
    ['a lone surrogate in a string value', { ...add, properties: { a: '\udc00' } }, 'properties.a', /lone UTF-16 surrogate/],
    ['a missing field', { ...add, src: undefined }, 'src', /./],
  ])('rejects %s, naming the field', (_, event, field, reason) => {
    const result = validateEdgeMutation(event, config, AT);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.field).toBe(field);
    expect(result.reason).toMatch(reason);
  });

  it('rejects a non-object', () => {
    expect(validateEdgeMutation('nope', config, AT)).toMatchObject({ ok: false, field: '(event)' });
  });

  it('counts the property bag exactly as the property codec encodes it', () => {
    const value: fc.Arbitrary<PropertyValue> = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.double(),
      fc.string({ unit: 'grapheme' }),
      fc.uint8Array().map((b) => Buffer.from(b)),
    );
    fc.assert(
      fc.property(value, (v) => {
        expect(propertyValueBytes(v)).toBe(encodePropertyValue(v).length);
      }),
    );
  });
});

describe('validateEdgeMutation: edge time and data (EdgeMutation v2)', () => {
  const hide: EdgeMutation = { ...add, op: 'HIDE_EDGE', properties: {} };

  it.each<[string, EdgeMutation]>([
    ['an ADD_EDGE with an edge time in the future and 255 bytes of data', { ...add, edge_time: NOW + 10n ** 12n, data: Buffer.alloc(255, 1) }],
    ['a HIDE_EDGE and an UNHIDE_EDGE with edge time and data', { ...hide, edge_time: NOW, data: Buffer.from([1]) }],
    ['an UNHIDE_EDGE without them (null)', { ...hide, op: 'UNHIDE_EDGE', edge_time: null, data: null }],
    ['empty data on a REMOVE_EDGE (none)', { ...add, op: 'REMOVE_EDGE', properties: {}, data: Buffer.alloc(0) }],
  ])('accepts %s', (_what, event) => {
    expect(validateEdgeMutation(event, config, AT)).toEqual({ ok: true, event });
  });

  it.each<[string, EdgeMutation, string, RegExp]>([
    ['256 bytes of data', { ...add, data: Buffer.alloc(256) }, 'data', /is 256 bytes, more than the 255 allowed \(limits.maxEdgeDataBytes\)/],
    ['data on a REMOVE_EDGE', { ...add, op: 'REMOVE_EDGE', properties: {}, data: Buffer.from([1]) }, 'data', /must be null for REMOVE_EDGE/],
    ['an edge time on SET_PROPERTIES', { ...add, op: 'SET_PROPERTIES', edge_time: NOW }, 'edge_time', /must be null for SET_PROPERTIES/],
    ['an edge time in seconds', { ...hide, edge_time: 1_700_000_000n }, 'edge_time', /before minEventTimeMicros/],
    ['an edge time above 2^63-1', { ...hide, edge_time: 2n ** 63n }, 'edge_time', /above 2\^63-1/],
    ['data that is not a Buffer', { ...hide, data: 'cafe' as unknown as Buffer }, 'data', /must be bytes/],
  ])('rejects %s, naming the field', (_what, event, field, reason) => {
    const verdict = validateEdgeMutation(event, config, AT);
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.field).toBe(field);
    expect(verdict.reason).toMatch(reason);
  });

  it('honours a smaller limits.maxEdgeDataBytes', () => {
    const small = defaultEdgestreamConfig({ limits: { maxEdgeDataBytes: 4 } });
    expect(validateEdgeMutation({ ...add, properties: {}, data: Buffer.alloc(5) }, small, AT)).toMatchObject({ ok: false, field: 'data', reason: expect.stringMatching(/more than the 4 allowed/) });
  });
});

describe('validateEdgeMutation: the bounds of event_time around the processing wall clock', () => {
  // Default retention: 10 days of gc_grace_seconds − a 1-day margin = a 9-day resurrection horizon.
  const HORIZON = 9n * 86_400_000_000n;
  const SKEW = 1_000_000n; // limits.maxFutureSkewMs 1000 above
  const refusal = (event: EdgeMutation, at: Parameters<typeof validateEdgeMutation>[2]) => {
    const verdict = validateEdgeMutation(event, config, at);
    return verdict.ok ? undefined : verdict;
  };

  it.each<[string, bigint]>([
    ['exactly at the resurrection horizon', NOW - HORIZON],
    ['an hour old', NOW - 3_600_000_000n],
    ['exactly at the end of the skew window', NOW + SKEW],
  ])('accepts an event time %s', (_what, eventTime) => {
    expect(refusal({ ...add, event_time: eventTime }, AT)).toBeUndefined();
  });

  it('refuses an event time older than the resurrection horizon, saying which bound and by how much', () => {
    const verdict = refusal({ ...add, event_time: NOW - HORIZON - 2n * 86_400_000_000n }, AT);
    expect(verdict?.field).toBe('event_time');
    expect(verdict?.reason).toMatch(/11\.0 days before the processing wall clock/);
    expect(verdict?.reason).toMatch(/2\.0 days past the resurrection horizon \(9\.0 days = retention\.gcGraceSeconds 864000 − retention\.replaySafetyMarginSeconds 86400\)/);
    expect(refusal({ ...add, event_time: NOW - HORIZON - 1n }, AT)?.reason).toMatch(/1 µs past the resurrection horizon/);
  });

  it('refuses an event time beyond the skew window, saying which bound and by how much', () => {
    const verdict = refusal({ ...add, event_time: NOW + SKEW + 500_000n }, AT);
    expect(verdict?.field).toBe('event_time');
    expect(verdict?.reason).toMatch(/1\.5 s ahead of the processing wall clock 1700000000000000, 500 ms beyond the skew window \(limits\.maxFutureSkewMs 1000\)/);
  });

  it('refuses every op past either bound, a REMOVE_NODE and a deletion too', () => {
    for (const e of [removeNode, removeProps, { ...add, op: 'REMOVE_EDGE', properties: {} } as EdgeMutation]) {
      expect(refusal({ ...e, event_time: NOW - HORIZON - 1n }, AT)?.field).toBe('event_time');
      expect(refusal({ ...e, event_time: NOW + SKEW + 1n }, AT)?.field).toBe('event_time');
    }
  });

  it('a repair re-run keeps the horizon but not the skew window (the fan-out accepted the event; a repair host may lag its clock)', () => {
    const repair = { ...AT, repair: true };
    expect(refusal({ ...add, event_time: NOW + SKEW + 500_000n }, repair)).toBeUndefined();
    expect(refusal({ ...add, event_time: NOW - HORIZON - 1n }, repair)?.reason).toMatch(/past the resurrection horizon/);
  });

  it('a record re-published by replay --force waives the horizon, never the skew window', () => {
    const forced = { ...AT, replayForced: true };
    expect(refusal({ ...add, event_time: NOW - HORIZON - 30n * 86_400_000_000n }, forced)).toBeUndefined();
    expect(refusal({ ...add, event_time: NOW + SKEW + 1n }, forced)?.reason).toMatch(/beyond the skew window/);
  });
});
