import type { KnownSchema } from '../../schemas/index.ts';
import type { AvroSerde, DecodedRecord } from './AvroSerde.ts';
import { createReaderResolver } from './createReaderResolver.ts';
import { createWriterSchemaCache, type WriterSchemaCache } from './createWriterSchemaCache.ts';
import { decodeAvroPayload } from './decodeAvroPayload.ts';
import { decodeWireFrame } from './decodeWireFrame.ts';
import { EncodeError } from './EncodeError.ts';
import { encodeWireFrame } from './encodeWireFrame.ts';
import type { SchemaRegistryReader } from './SchemaRegistryReader.ts';
import { toDecodeError } from './toDecodeError.ts';
import { toEncodeError } from './toEncodeError.ts';
import type { WriterSchema } from './WriterSchema.ts';

/**
 * Builds an AvroSerde on a kafkajs SchemaRegistry client (or anything with
 * its getSchema/getLatestSchemaId). Decoding is three steps kept apart:
 * frame (bytes → schema id + body), look up the writer schema (cached), then
 * interpret (resolve into the expected reader) and decode the body.
 */
export function createAvroSerde({ registry }: { registry: SchemaRegistryReader }): AvroSerde {
  const writerSchema = createWriterSchemaCache(registry);
  const resolveReader = createReaderResolver();
  const latestIdBySubject = new Map<string, Promise<number>>();

  const latestId = (subject: string): Promise<number> => {
    let id = latestIdBySubject.get(subject);
    if (!id) {
      id = registry.getLatestSchemaId(subject);
      latestIdBySubject.set(subject, id);
      const settled = id;
      settled.catch(() => {
        if (latestIdBySubject.get(subject) === settled) latestIdBySubject.delete(subject);
      });
    }
    return id;
  };

  return {
    async encode(subjectOrSchemaId, value) {
      const writer = await lookupForEncode(subjectOrSchemaId, latestId, writerSchema);
      const badPaths: string[] = [];
      if (!writer.type.isValid(value, { errorHook: (path) => badPaths.push(path.join('.') || '(root)') })) {
        throw new EncodeError(
          'INVALID_VALUE',
          `value does not match ${writer.fullName} (schema ${writer.schemaId}) at: ${badPaths.join(', ')}`,
        );
      }
      return encodeWireFrame(writer.schemaId, writer.type.toBuffer(value));
    },

    async decode<T>(buffer: Buffer, reader?: KnownSchema<T>): Promise<DecodedRecord<T>> {
      const { schemaId, payload } = decodeWireFrame(buffer);
      let writer: WriterSchema;
      try {
        writer = await writerSchema(schemaId);
      } catch (e) {
        throw toDecodeError(e, schemaId);
      }
      const plan = reader ? resolveReader(writer, reader) : undefined;
      const value = plan
        ? decodeAvroPayload(payload, schemaId, plan.readerType, plan.resolver)
        : decodeAvroPayload(payload, schemaId, writer.type);
      return { schemaId, schemaName: writer.fullName, value: value as T };
    },
  };
}

async function lookupForEncode(
  target: string | number,
  latestId: (subject: string) => Promise<number>,
  writerSchema: WriterSchemaCache,
): Promise<WriterSchema> {
  try {
    const schemaId = typeof target === 'string' ? await latestId(target) : target;
    return await writerSchema(schemaId);
  } catch (e) {
    throw toEncodeError(e, target);
  }
}
