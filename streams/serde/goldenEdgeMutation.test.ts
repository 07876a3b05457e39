import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { createAvroSerde } from './createAvroSerde.ts';
import { createStubSchemaRegistry } from './testHelpers/createStubSchemaRegistry.ts';
import { edgeMutationV1Avsc } from './testHelpers/edgeMutationV1Avsc.ts';
import { sampleEdgeMutation } from './testHelpers/sampleEdgeMutation.ts';

// Golden bytes. Never regenerate these to make a test pass: a diff here means the wire format changed.
//
// v1, schema id 7: sampleEdgeMutation written with EdgeMutation v1.
// Layout: 00 (magic) | 00000007 (id, int32 BE) | 10 "mut-0001" (zigzag length 8) | 04 (op index 2,
// SET_PROPERTIES) | 0e "follows" | 0a "alice" | 06 "bob" | 80 89 81 82 83 89 85 06 (event_time, zigzag
// varint) | 0c (map block of 6) | per entry: key, branch index, value | 00 (map end) | 00 (no property_keys).
const GOLDEN_V1 = readFileSync(new URL('../../test/fixtures/avro/EdgeMutation.v1.schema-id-7.bin', import.meta.url));
const V1_SCHEMA_ID = 7;
//
// v2, schema id 8: HIDE_EDGE with an edge time and data, written with EdgeMutation v2.
// Layout: 00 | 00000008 | 10 "mut-0002" | 0a (op index 5, HIDE_EDGE: new symbols are appended) | 0e "follows"
// | 0a "alice" | 06 "bob" | 80 89 81 82 83 89 85 06 (event_time) | 00 (empty map) | 00 (empty array)
// | 02 (edge_time branch 1, long) 82 80 a0 fa a0 cc d7 05 | 02 (data branch 1, bytes) 04 ca fe.
const GOLDEN_V2 = readFileSync(new URL('../../test/fixtures/avro/EdgeMutation.v2.schema-id-8.bin', import.meta.url));
const V2_SCHEMA_ID = 8;
const hideWithEdgeTimeAndData: EdgeMutation = {
  mutation_id: 'mut-0002',
  op: 'HIDE_EDGE',
  edge_type: 'follows',
  src: 'alice',
  dst: 'bob',
  event_time: 1_700_000_000_123_456n,
  properties: {},
  property_keys: [],
  edge_time: 1_600_000_000_000_001n,
  data: Buffer.from([0xca, 0xfe]),
};

describe('EdgeMutation golden bytes', () => {
  const registry = createStubSchemaRegistry({
    schemasById: { [V1_SCHEMA_ID]: edgeMutationV1Avsc, [V2_SCHEMA_ID]: knownSchemas.EdgeMutation.avsc },
  });
  const serde = createAvroSerde({ registry });

  it('the reader is EdgeMutation v2', () => {
    expect(knownSchemas.EdgeMutation.version).toBe(2);
  });

  it('carry the Confluent header: magic byte 0 and the schema id big-endian', () => {
    expect(GOLDEN_V1.subarray(0, 5)).toEqual(Buffer.from([0, 0, 0, 0, 7]));
    expect(GOLDEN_V2.subarray(0, 5)).toEqual(Buffer.from([0, 0, 0, 0, 8]));
  });

  it('v1 bytes decode with the v2 reader to the expected EdgeMutation, edge_time and data null, every property union branch intact', async () => {
    const decoded = await serde.decode(GOLDEN_V1, knownSchemas.EdgeMutation);
    expect(decoded).toEqual({ schemaId: 7, schemaName: 'io.edgestream.EdgeMutation', value: sampleEdgeMutation });
    expect(decoded.value.edge_time).toBeNull();
    expect(decoded.value.data).toBeNull();
    expect(typeof decoded.value.properties['weight']).toBe('bigint');
    expect(Buffer.isBuffer(decoded.value.properties['blob'])).toBe(true);
  });

  it('v1 bytes are exactly what encoding the expected value with the v1 schema (id 7) produces', async () => {
    expect((await serde.encode(V1_SCHEMA_ID, sampleEdgeMutation)).equals(GOLDEN_V1)).toBe(true);
  });

  it('v2 bytes decode to a HIDE_EDGE with its edge time and data', async () => {
    const decoded = await serde.decode(GOLDEN_V2, knownSchemas.EdgeMutation);
    expect(decoded).toEqual({ schemaId: 8, schemaName: 'io.edgestream.EdgeMutation', value: hideWithEdgeTimeAndData });
    expect(typeof decoded.value.edge_time).toBe('bigint');
  });

  it('v2 bytes are exactly what encoding the expected value with the v2 schema (id 8) produces', async () => {
    expect((await serde.encode(V2_SCHEMA_ID, hideWithEdgeTimeAndData)).equals(GOLDEN_V2)).toBe(true);
  });

  it('a v2 writer may omit edge_time and data: they encode as null', async () => {
    const { edge_time: _t, data: _d, ...v1Shaped } = sampleEdgeMutation;
    const decoded = await serde.decode(await serde.encode(V2_SCHEMA_ID, v1Shaped), knownSchemas.EdgeMutation);
    expect(decoded.value).toEqual(sampleEdgeMutation);
  });
});
