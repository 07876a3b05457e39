import type { EdgeMutation } from '../../../schemas/generated/EdgeMutation.ts';

let seq = 0;

/** A valid `follows` EdgeMutation for table-driven tests, with a fresh mutation id (`m<n>`) unless `more` sets one. */
export const followsMutation = (op: EdgeMutation['op'], src: string, dst: string, time: bigint, more: Partial<EdgeMutation> = {}): EdgeMutation => ({
  mutation_id: `m${++seq}`,
  op,
  edge_type: 'follows',
  src,
  dst,
  event_time: time,
  properties: {},
  property_keys: [],
  ...more,
});
