import type avro from 'avsc';
import { avroTypeFor, type KnownSchema } from '../../schemas/index.ts';
import { DecodeError } from './DecodeError.ts';
import type { WriterSchema } from './WriterSchema.ts';

/** How to read bytes written with `writer` as values of `reader`. */
export interface ReadPlan {
  readonly readerType: avro.Type;
  readonly resolver: avro.Resolver;
}

export type ReaderResolver = (writer: WriterSchema, reader: KnownSchema<unknown>) => ReadPlan;

/**
 * Avro schema resolution (writer → reader), cached per (writer id, reader).
 * This is the "interpret" step: it decides whether bytes written with one
 * schema mean a value of the record the caller expects. Fields the writer
 * has and the reader lacks are skipped; fields the reader has and the writer
 * lacks take the reader's default. Names must match (or be a reader alias).
 * Throws DecodeError WRONG_SCHEMA when avsc finds the two incompatible (a
 * different record, or a reader field with neither writer field nor default).
 */
export function createReaderResolver(): ReaderResolver {
  const readerTypes = new WeakMap<KnownSchema<unknown>, avro.Type>();
  const plans = new Map<string, ReadPlan>();
  return (writer, reader) => {
    const key = `${writer.schemaId}\u0000${reader.fullName}\u0000${reader.version}`;
    const cached = plans.get(key);
    if (cached) return cached;
    let readerType = readerTypes.get(reader);
    if (!readerType) {
      readerType = avroTypeFor(reader.avsc);
      readerTypes.set(reader, readerType);
    }
    let resolver: avro.Resolver;
    try {
      resolver = readerType.createResolver(writer.type);
    } catch (cause) {
      throw new DecodeError(
        'WRONG_SCHEMA',
        `schema ${writer.schemaId} (${writer.fullName}) cannot be read as ${reader.fullName} v${reader.version}: ${errorMessage(cause)}`,
        { cause, schemaId: writer.schemaId },
      );
    }
    const plan = { readerType, resolver };
    plans.set(key, plan);
    return plan;
  };
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
