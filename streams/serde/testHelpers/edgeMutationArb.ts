import fc from 'fast-check';
import { EdgeOp, type EdgeMutation } from '../../../schemas/index.ts';

/** Any EdgeMutation the schema allows (every union branch, the whole int64 range), for property tests. */
export const edgeMutationArb: fc.Arbitrary<EdgeMutation> = fc.record({
  mutation_id: fc.uuid(),
  op: fc.constantFrom(...Object.values(EdgeOp)),
  edge_type: fc.string(),
  src: fc.string(),
  dst: fc.string(),
  event_time: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  properties: fc.dictionary(
    fc.string().filter((k) => k !== '__proto__'),
    fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.double(),
      fc.string(),
      fc.uint8Array({ maxLength: 16 }).map((a) => Buffer.from(a)),
    ),
  ),
  property_keys: fc.array(fc.string()),
  edge_time: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
  data: fc.option(fc.uint8Array({ maxLength: 16 }).map((a) => Buffer.from(a))),
});
