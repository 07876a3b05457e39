import fc from 'fast-check';
import type { EdgeMutation } from '../../../schemas/generated/EdgeMutation.ts';

/**
 * Random EdgeMutations over a tiny graph so that everything collides: few
 * vertices (self-loops included), three edge types (two directed, one
 * symmetric: one property bag for both directions), event times 1..6 (ties are
 * common), a handful of mutation ids (ties between different events on one
 * cell must be settled by bytes), property values of every type with
 * lookalikes (1n, 1, '1'), and every op including REMOVE_NODE and bag clears.
 * Adds, hides and unhides may carry an edge time (1..8, so it can be before,
 * equal to or after the event time) and data (ties settled by it).
 * All events are valid per schemas/validation.
 */
export const MODEL_VERTICES = ['a', 'b', 'c', 'dé'] as const;
export const MODEL_EDGE_TYPES = ['follows', 'likes', 'friends'] as const;
export const MODEL_SYMMETRIC_TYPES: readonly string[] = ['friends'];
/** `edgeTypes` of a config declaring the model's types. */
export const MODEL_EDGE_TYPE_CONFIG = MODEL_EDGE_TYPES.map((name) => ({ name, symmetric: MODEL_SYMMETRIC_TYPES.includes(name) }));

const vertex = fc.constantFrom(...MODEL_VERTICES);
const edgeType = fc.constantFrom(...MODEL_EDGE_TYPES);
const time = fc.bigInt({ min: 1n, max: 6n });
const mutationId = fc.constantFrom('m1', 'm2', 'm10', 'z', 'é');
const propertyName = fc.constantFrom('p', 'q', 'r');
const propertyValue = fc.constantFrom<EdgeMutation['properties'][string]>(null, true, false, 1n, -1n, 1, 2.5, '1', 'x', Buffer.from([1]), Buffer.from([]));
const properties = fc.dictionary(propertyName, propertyValue, { maxKeys: 3 });

const base = fc.record({ mutation_id: mutationId, edge_type: edgeType, src: vertex, dst: vertex, event_time: time });
/** The optional edge time and data of an op writing a whole link value; omitted fields stand for a v1 producer. */
const edgeValue = fc.record(
  { edge_time: fc.option(fc.bigInt({ min: 1n, max: 8n })), data: fc.option(fc.constantFrom(Buffer.from([1]), Buffer.from([2, 0]), Buffer.alloc(0))) },
  { requiredKeys: [] },
);

export const edgeMutationArbitrary: fc.Arbitrary<EdgeMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ b: base, v: edgeValue, properties }).map(({ b, v, properties: p }): EdgeMutation => ({ ...b, ...v, op: 'ADD_EDGE', properties: p, property_keys: [] })) },
  { weight: 1, arbitrary: fc.record({ b: base, v: edgeValue }).map(({ b, v }): EdgeMutation => ({ ...b, ...v, op: 'HIDE_EDGE', properties: {}, property_keys: [] })) },
  { weight: 1, arbitrary: fc.record({ b: base, v: edgeValue }).map(({ b, v }): EdgeMutation => ({ ...b, ...v, op: 'UNHIDE_EDGE', properties: {}, property_keys: [] })) },
  { weight: 2, arbitrary: base.map((b): EdgeMutation => ({ ...b, op: 'REMOVE_EDGE', properties: {}, property_keys: [] })) },
  { weight: 2, arbitrary: fc.record({ b: base, properties }).map(({ b, properties: p }): EdgeMutation => ({ ...b, op: 'SET_PROPERTIES', properties: p, property_keys: [] })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ b: base, keys: fc.uniqueArray(propertyName, { maxLength: 2 }) })
      .map(({ b, keys }): EdgeMutation => ({ ...b, op: 'REMOVE_PROPERTIES', properties: {}, property_keys: keys })),
  },
  { weight: 1, arbitrary: base.map((b): EdgeMutation => ({ ...b, op: 'REMOVE_NODE', edge_type: '', dst: '', properties: {}, property_keys: [] })) },
);
