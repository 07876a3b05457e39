import { DEFAULT_MAX_RECORD_BYTES } from '../../schemas/config/edgestreamConfig.ts';
import type { KnownSchema } from '../../schemas/index.ts';
import type { AvroSerde, DecodedRecord } from './AvroSerde.ts';
import { createReaderResolver } from './createReaderResolver.ts';
import { createWriterSchemaCache, type WriterSchemaCache } from './createWriterSchemaCache.ts';
import { decodeAvroPayload } from './decodeAvroPayload.ts';
import { DecodeError } from './DecodeError.ts';
import { decodeWireFrame } from './decodeWireFrame.ts';
import { EncodeError } from './EncodeError.ts';
import { encodeFramed } from './encodeWireFrame.ts';
import type { SchemaRegistryReader } from './SchemaRegistryReader.ts';
import { toDecodeError } from './toDecodeError.ts';
import { toEncodeError } from './toEncodeError.ts';
import type { WriterSchema } from './WriterSchema.ts';

export interface AvroSerdeOptions {
  readonly registry: SchemaRegistryReader;
  /** Largest value `decode` reads, in bytes (config `limits.maxRecordBytes`); a larger one is RECORD_TOO_LARGE unread. */
  readonly maxRecordBytes?: number;
}

/**
 * Builds an AvroSerde on a kafkajs SchemaRegistry client (or anything with
 * its getSchema/getLatestSchemaId). Decoding is a size check, then three
 * steps kept apart: frame (bytes → schema id + body), look up the writer
 * schema (cached), then bound the body by its writer schema, interpret
 * (resolve into the expected reader) and decode it.
 */
export function createAvroSerde({ registry, maxRecordBytes = DEFAULT_MAX_RECORD_BYTES }: AvroSerdeOptions): AvroSerde {
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
    async encoder(subjectOrSchemaId) {
      const writer = await lookupForEncode(subjectOrSchemaId, latestId, writerSchema);
      return (value) => encodeChecked(writer, value);
    },

    async encode(subjectOrSchemaId, value) {
      return encodeChecked(await lookupForEncode(subjectOrSchemaId, latestId, writerSchema), value);
    },

    async decode<T>(buffer: Buffer, reader?: KnownSchema<T>): Promise<DecodedRecord<T>> {
      if (buffer.length > maxRecordBytes) {
        throw new DecodeError('RECORD_TOO_LARGE', `value is ${buffer.length} bytes, over the ${maxRecordBytes}-byte limit (limits.maxRecordBytes)`);
      }
      const { schemaId, payload } = decodeWireFrame(buffer);
      let writer: WriterSchema;
      try {
        writer = await writerSchema(schemaId);
      } catch (e) {
        throw toDecodeError(e, schemaId);
      }
      const plan = reader ? resolveReader(writer, reader) : undefined;
      const value = decodeAvroPayload(payload, writer, plan);
      return { schemaId, schemaName: writer.fullName, value: value as T };
    },
  };
}

/**
 * avsc's writer checks every value it writes, so a valid value is encoded
 * without a separate `isValid` pass; only a failure pays for one, to name the
 * bad paths.
 */
function encodeChecked(writer: WriterSchema, value: unknown): Buffer {
  try {
    return encodeFramed(writer.schemaId, writer.type, value);
  } catch (e) {
    const badPaths: string[] = [];
    if (writer.type.isValid(value, { errorHook: (path) => badPaths.push(path.join('.') || '(root)') })) throw e; // not the value's fault
    throw new EncodeError('INVALID_VALUE', `value does not match ${writer.fullName} (schema ${writer.schemaId}) at: ${badPaths.join(', ')}`);
  }
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
