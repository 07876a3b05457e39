import type { EdgeMutation } from '../../../schemas/index.ts';

/** An EdgeMutation whose properties use every union branch, including a long above 2^53. */
export const sampleEdgeMutation: EdgeMutation = {
  mutation_id: 'mut-0001',
  op: 'SET_PROPERTIES',
  edge_type: 'follows',
  src: 'alice',
  dst: 'bob',
  event_time: 1_700_000_000_123_456n,
  properties: {
    muted: null,
    close_friend: true,
    weight: 9_007_199_254_740_993n,
    score: 0.25,
    status: 'ACTIVE',
    blob: Buffer.from([0xde, 0xad, 0xbe, 0xef]),
  },
  property_keys: [],
  // v2 fields, null as a v1 record decodes with the v2 reader.
  edge_time: null,
  data: null,
};
