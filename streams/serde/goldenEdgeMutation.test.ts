import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knownSchemas } from '../../schemas/index.ts';
import { createAvroSerde } from './createAvroSerde.ts';
import { createStubSchemaRegistry } from './testHelpers/createStubSchemaRegistry.ts';
import { sampleEdgeMutation } from './testHelpers/sampleEdgeMutation.ts';

// Golden bytes: sampleEdgeMutation written with EdgeMutation v1 under schema id 7.
// Layout: 00 (magic) | 00000007 (id, int32 BE) | 10 "mut-0001" (zigzag length 8) | 04 (op index 2,
// SET_PROPERTIES) | 0e "follows" | 0a "alice" | 06 "bob" | 80 89 81 82 83 89 85 06 (event_time, zigzag
// varint) | 0c (map block of 6) | per entry: key, branch index, value | 00 (map end) | 00 (no property_keys).
// Never regenerate these to make a test pass: a diff here means the wire format changed.
const GOLDEN = readFileSync(new URL('../../test/fixtures/avro/EdgeMutation.v1.schema-id-7.bin', import.meta.url));
const GOLDEN_SCHEMA_ID = 7;

describe('EdgeMutation v1 golden bytes', () => {
  const registry = createStubSchemaRegistry({ schemasById: { [GOLDEN_SCHEMA_ID]: knownSchemas.EdgeMutation.avsc } });
  const serde = createAvroSerde({ registry });

  it('carry the Confluent header: magic byte 0 and schema id 7 big-endian', () => {
    expect(GOLDEN.subarray(0, 5)).toEqual(Buffer.from([0, 0, 0, 0, 7]));
  });

  it('decode to the expected EdgeMutation, with every property union branch intact', async () => {
    const decoded = await serde.decode(GOLDEN, knownSchemas.EdgeMutation);
    expect(decoded).toEqual({ schemaId: 7, schemaName: 'io.edgestream.EdgeMutation', value: sampleEdgeMutation });
    expect(typeof decoded.value.properties['weight']).toBe('bigint');
    expect(Buffer.isBuffer(decoded.value.properties['blob'])).toBe(true);
  });

  it('are exactly what encoding the expected value with schema id 7 produces', async () => {
    expect((await serde.encode(GOLDEN_SCHEMA_ID, sampleEdgeMutation)).equals(GOLDEN)).toBe(true);
  });
});
