import avro from 'avsc';
import { avroTypeFor } from '../../schemas/index.ts';
import { compileBodyCheck, type BodyCheck } from './compileBodyCheck.ts';
import { NotAnAvroRecordError } from './NotAnAvroRecordError.ts';
import type { SchemaRegistryReader } from './SchemaRegistryReader.ts';
import type { WriterSchema } from './WriterSchema.ts';

/** Looks up writer schemas by id, once per id. */
export type WriterSchemaCache = (schemaId: number) => Promise<WriterSchema>;

/**
 * Caches schema id → WriterSchema for the life of the process (a registered
 * id never changes meaning). Concurrent lookups of one id share one promise.
 * Failures are not cached: an outage must not stick, and a 404 is rare
 * (bad messages) and cheap to ask again. Rejects with the client's own error
 * (for the boundary to classify) or NotAnAvroRecordError.
 *
 * The client builds its own avsc type with its own options (longs as JS
 * numbers); the type is rebuilt from its schema with avroTypeFor so decoded
 * values have the shapes the generated TS types promise.
 */
export function createWriterSchemaCache(registry: SchemaRegistryReader): WriterSchemaCache {
  const byId = new Map<number, Promise<WriterSchema>>();
  return (schemaId) => {
    let entry = byId.get(schemaId);
    if (!entry) {
      entry = fetchWriterSchema(registry, schemaId);
      byId.set(schemaId, entry);
      const settled = entry;
      settled.catch(() => {
        if (byId.get(schemaId) === settled) byId.delete(schemaId);
      });
    }
    return entry;
  };
}

async function fetchWriterSchema(registry: SchemaRegistryReader, schemaId: number): Promise<WriterSchema> {
  const fromClient: unknown = await registry.getSchema(schemaId);
  if (!avro.Type.isType(fromClient)) {
    throw new NotAnAvroRecordError(`schema ${schemaId} is not an Avro schema`);
  }
  const clientType = fromClient as avro.Type;
  let type: avro.Type;
  try {
    type = avroTypeFor(clientType.schema({ exportAttrs: true }));
  } catch (cause) {
    throw new NotAnAvroRecordError(`schema ${schemaId} cannot be decoded with unwrapped unions: ${String(cause)}`, { cause });
  }
  if (type.typeName !== 'record' || type.name === undefined) {
    throw new NotAnAvroRecordError(`schema ${schemaId} is a ${type.typeName}, not a record`);
  }
  let checkBody: BodyCheck;
  try {
    checkBody = compileBodyCheck(type);
  } catch (cause) {
    throw new NotAnAvroRecordError(`schema ${schemaId} has a type edgestream cannot bound: ${String(cause)}`, { cause });
  }
  return { schemaId, fullName: type.name, type, checkBody };
}
