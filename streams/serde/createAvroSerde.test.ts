import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avroTypeFor, knownSchemas } from '../../schemas/index.ts';
import { createAvroSerde } from './createAvroSerde.ts';
import { DecodeError } from './DecodeError.ts';
import { EncodeError } from './EncodeError.ts';
import { encodeWireFrame } from './encodeWireFrame.ts';
import { createStubSchemaRegistry, registryResponseError } from './testHelpers/createStubSchemaRegistry.ts';
import { edgeMutationArb } from './testHelpers/edgeMutationArb.ts';
import { sampleEdgeMutation } from './testHelpers/sampleEdgeMutation.ts';

const V1 = 1;
const V2_WITH_DEFAULTED_FIELD = 2;
const OTHER_RECORD = 3;
const V2_WITHOUT_DEFAULT = 4;
const STRING_SCHEMA = 5;

const v1 = knownSchemas.EdgeMutation.avsc;
// A hypothetical next version of the current schema (the "v1" of these tests).
const v2WithTenant = (withDefault: boolean): object => ({
  ...v1,
  fields: [...v1.fields, { name: 'tenant', type: 'string', ...(withDefault ? { default: 'default' } : {}) }],
});

function setup() {
  const registry = createStubSchemaRegistry({
    schemasById: {
      [V1]: v1,
      [V2_WITH_DEFAULTED_FIELD]: v2WithTenant(true),
      [OTHER_RECORD]: knownSchemas.WidePartitionDetected.avsc,
      [V2_WITHOUT_DEFAULT]: v2WithTenant(false),
      [STRING_SCHEMA]: { type: 'string' },
    },
    latestIdBySubject: { 'edges-value': V1 },
  });
  return { registry, serde: createAvroSerde({ registry }) };
}

async function decodeFailure(promise: Promise<unknown>): Promise<DecodeError> {
  const e = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!DecodeError.is(e)) throw new Error(`expected a DecodeError, got ${String(e)}`);
  return e;
}


describe('createAvroSerde', () => {
  it('round-trips an EdgeMutation encoded by subject and decoded as EdgeMutation', async () => {
    const { serde } = setup();
    const bytes = await serde.encode('edges-value', sampleEdgeMutation);
    expect(await serde.decode(bytes, knownSchemas.EdgeMutation)).toEqual({
      schemaId: V1,
      schemaName: 'io.edgestream.EdgeMutation',
      value: sampleEdgeMutation,
    });
  });

  it('round-trips any EdgeMutation, keeping long (bigint) and double (number) apart', async () => {
    const { serde } = setup();
    await fc.assert(
      fc.asyncProperty(edgeMutationArb, async (mutation) => {
        const decoded = await serde.decode(await serde.encode(V1, mutation), knownSchemas.EdgeMutation);
        expect(decoded.value).toEqual(mutation);
      }),
      { numRuns: 200 },
    );
  });

  it('decodes with the writer schema when no reader is given', async () => {
    const { serde } = setup();
    const decoded = await serde.decode(await serde.encode(V2_WITH_DEFAULTED_FIELD, { ...sampleEdgeMutation, tenant: 't1' }));
    expect(decoded.schemaName).toBe('io.edgestream.EdgeMutation');
    expect(decoded.value).toEqual({ ...sampleEdgeMutation, tenant: 't1' });
  });

  it('reads a newer writer with a v1 reader, dropping the field v1 does not know', async () => {
    const { serde } = setup();
    const bytes = await serde.encode(V2_WITH_DEFAULTED_FIELD, { ...sampleEdgeMutation, tenant: 't1' });
    const decoded = await serde.decode(bytes, knownSchemas.EdgeMutation);
    expect(decoded.schemaId).toBe(V2_WITH_DEFAULTED_FIELD);
    expect(decoded.value).toEqual(sampleEdgeMutation);
  });

  it('reads v1 bytes with a newer reader, filling the new field from its default', async () => {
    const { serde } = setup();
    const v2Reader = { ...knownSchemas.EdgeMutation, version: knownSchemas.EdgeMutation.version + 1, avsc: v2WithTenant(true) as typeof v1 };
    const decoded = await serde.decode(await serde.encode(V1, sampleEdgeMutation), v2Reader);
    expect(decoded.value).toEqual({ ...sampleEdgeMutation, tenant: 'default' });
  });

  it('asks the registry once per schema id, even for concurrent decodes', async () => {
    const { serde, registry } = setup();
    const bytes = await serde.encode(V1, sampleEdgeMutation);
    await Promise.all(Array.from({ length: 10 }, () => serde.decode(bytes, knownSchemas.EdgeMutation)));
    expect(registry.lookups.get(V1)).toBe(1);
  });

  describe('decode failures', () => {
    it('UNKNOWN_SCHEMA_ID when the registry answers 404, not retriable', async () => {
      const { serde } = setup();
      const e = await decodeFailure(serde.decode(encodeWireFrame(999, Buffer.from([2, 0x61]))));
      expect(e).toMatchObject({ code: 'UNKNOWN_SCHEMA_ID', retriable: false, schemaId: 999 });
      expect(e.cause).toMatchObject({ status: 404 });
    });

    it.each([400, 500, 503])('REGISTRY_UNAVAILABLE, retriable, when the registry fails with %i', async (status) => {
      const { serde, registry } = setup();
      registry.failWith = registryResponseError(status);
      const e = await decodeFailure(serde.decode(encodeWireFrame(V1, Buffer.alloc(0))));
      expect(e).toMatchObject({ code: 'REGISTRY_UNAVAILABLE', retriable: true });
    });

    it('does not cache an outage: the same id decodes once the registry is back', async () => {
      const { serde, registry } = setup();
      const bytes = await serde.encode(V1, sampleEdgeMutation);
      const fresh = createAvroSerde({ registry });
      registry.failWith = registryResponseError(503);
      await decodeFailure(fresh.decode(bytes));
      registry.failWith = undefined;
      expect((await fresh.decode(bytes, knownSchemas.EdgeMutation)).value).toEqual(sampleEdgeMutation);
    });

    it('passes a non-registry error (a bug) through untouched', async () => {
      const { serde, registry } = setup();
      const bug = new TypeError('cannot read properties of undefined');
      registry.failWith = bug;
      await expect(serde.decode(encodeWireFrame(V1, Buffer.alloc(0)))).rejects.toBe(bug);
    });

    it('BAD_LENGTH naming the field for a body cut inside a string (its declared length is more than is left)', async () => {
      const { serde } = setup();
      const bytes = await serde.encode(V1, sampleEdgeMutation);
      const e = await decodeFailure(serde.decode(bytes.subarray(0, bytes.length - 6), knownSchemas.EdgeMutation));
      expect(e).toMatchObject({ code: 'BAD_LENGTH', retriable: false, schemaId: V1 });
      expect(e.message).toMatch(/at properties\{\}: declares a length of \d+ bytes, but \d+ remain/); // the cut is in the last property's string
    });

    it('BAD_PAYLOAD for a body that ends inside a varint', async () => {
      const { serde } = setup();
      const e = await decodeFailure(serde.decode(encodeWireFrame(V1, Buffer.from([0x80])), knownSchemas.EdgeMutation));
      expect(e).toMatchObject({ code: 'BAD_PAYLOAD', retriable: false, schemaId: V1 });
      expect(e.message).toContain('at mutation_id: the body ends inside a varint');
    });

    it('RECORD_TOO_LARGE before framing or a registry lookup, naming the limit', async () => {
      const registry = createStubSchemaRegistry({ schemasById: { [V1]: v1 } });
      const serde = createAvroSerde({ registry, maxRecordBytes: 2_048 });
      const e = await decodeFailure(serde.decode(encodeWireFrame(V1, Buffer.alloc(2_044)), knownSchemas.EdgeMutation));
      expect(e).toMatchObject({ code: 'RECORD_TOO_LARGE', retriable: false });
      expect(e.message).toBe('value is 2049 bytes, over the 2048-byte limit (limits.maxRecordBytes)');
      expect(registry.lookups.size).toBe(0);
      const atLimit = await decodeFailure(serde.decode(encodeWireFrame(V1, Buffer.alloc(2_043)), knownSchemas.EdgeMutation));
      expect(atLimit.code).not.toBe('RECORD_TOO_LARGE');
    });

    it('BAD_PAYLOAD for trailing bytes after the record', async () => {
      const { serde } = setup();
      const bytes = await serde.encode(V1, sampleEdgeMutation);
      const e = await decodeFailure(serde.decode(Buffer.concat([bytes, Buffer.from([0])]), knownSchemas.EdgeMutation));
      expect(e.code).toBe('BAD_PAYLOAD');
    });

    it('BAD_PAYLOAD for an enum index out of range', async () => {
      const { serde } = setup();
      // mutation_id "" then op index 9 (zigzag 18) — EdgeOp has 5 symbols.
      const e = await decodeFailure(serde.decode(encodeWireFrame(V1, Buffer.from([0, 18]))));
      expect(e.code).toBe('BAD_PAYLOAD');
    });

    it('WRONG_SCHEMA when the writer is a different record than the one expected', async () => {
      const { serde } = setup();
      const bytes = await serde.encode(OTHER_RECORD, {
        namespace: 'n',
        partition_id: 'p',
        bytes_read: 1n,
        rows_read: 1n,
        rows_returned: 1n,
        detected_at: 1n,
        immutable: true,
        window_ms: 1n,
      });
      const e = await decodeFailure(serde.decode(bytes, knownSchemas.EdgeMutation));
      expect(e).toMatchObject({ code: 'WRONG_SCHEMA', retriable: false, schemaId: OTHER_RECORD });
      expect(e.message).toContain('io.edgestream.WidePartitionDetected');
    });

    it('WRONG_SCHEMA when the reader needs a field the writer lacks and has no default', async () => {
      const { serde } = setup();
      const strictReader = { ...knownSchemas.EdgeMutation, version: 2, avsc: v2WithTenant(false) as typeof v1 };
      const e = await decodeFailure(serde.decode(await serde.encode(V1, sampleEdgeMutation), strictReader));
      expect(e.code).toBe('WRONG_SCHEMA');
    });

    it('WRONG_SCHEMA when the registered schema is not a record', async () => {
      const { serde } = setup();
      const e = await decodeFailure(serde.decode(encodeWireFrame(STRING_SCHEMA, Buffer.from([2, 0x61]))));
      expect(e.code).toBe('WRONG_SCHEMA');
    });
  });

  it('frames exactly the bytes of toBuffer behind the header, for any value, also past the 64 KiB scratch buffer', async () => {
    const { serde } = setup();
    const type = avroTypeFor(v1);
    const encode = await serde.encoder(V1);
    const big = { ...sampleEdgeMutation, properties: { blob: Buffer.alloc(200_000, 7) } };
    for (const m of [big, sampleEdgeMutation, big]) expect(encode(m).equals(encodeWireFrame(V1, type.toBuffer(m)))).toBe(true);
    fc.assert(
      fc.property(edgeMutationArb, (m) => {
        expect(encode(m).equals(encodeWireFrame(V1, type.toBuffer(m)))).toBe(true);
      }),
    );
  });

  it('encoder(): the synchronous form of encode, same bytes, same INVALID_VALUE naming the field', async () => {
    const { serde } = setup();
    const encode = await serde.encoder('edges-value');
    expect(encode(sampleEdgeMutation).equals(await serde.encode('edges-value', sampleEdgeMutation))).toBe(true);
    let e: unknown;
    try {
      encode({ ...sampleEdgeMutation, src: 42 });
    } catch (x) {
      e = x;
    }
    expect(EncodeError.is(e)).toBe(true);
    expect(e).toMatchObject({ code: 'INVALID_VALUE', retriable: false });
    expect((e as Error).message).toMatch(/at: src$/);
    await expect(serde.encoder('nope-value')).rejects.toMatchObject({ code: 'UNKNOWN_SUBJECT' });
  });

  describe('encode failures', () => {
    it('INVALID_VALUE naming the bad field, e.g. a number where a long (bigint) is due', async () => {
      const { serde } = setup();
      const e: unknown = await serde.encode(V1, { ...sampleEdgeMutation, event_time: 1_700_000_000_000_000 }).catch((x: unknown) => x);
      expect(EncodeError.is(e)).toBe(true);
      expect(e).toMatchObject({ code: 'INVALID_VALUE', retriable: false });
      expect((e as Error).message).toContain('event_time');
    });

    it('UNKNOWN_SUBJECT for a subject with no registered version', async () => {
      const { serde } = setup();
      await expect(serde.encode('nope-value', sampleEdgeMutation)).rejects.toMatchObject({ code: 'UNKNOWN_SUBJECT' });
    });

    it('REGISTRY_UNAVAILABLE, retriable, when the registry is down', async () => {
      const { serde, registry } = setup();
      registry.failWith = registryResponseError(400, 'connect ECONNREFUSED');
      await expect(serde.encode('edges-value', sampleEdgeMutation)).rejects.toMatchObject({
        name: 'EncodeError',
        code: 'REGISTRY_UNAVAILABLE',
        retriable: true,
      });
    });
  });
});
