import type { KnownSchema } from '../../schemas/index.ts';

/** A decoded Kafka value and the writer schema it was written with. */
export interface DecodedRecord<T> {
  /** The writer schema's registry id, from the wire-format header. */
  readonly schemaId: number;
  /** The writer schema's namespace-qualified record name, e.g. `io.edgestream.EdgeMutation`. */
  readonly schemaName: string;
  readonly value: T;
}

/** Confluent wire format (magic 0, int32 BE schema id, Avro binary) over a schema registry. */
export interface AvroSerde {
  /**
   * Encodes `value` with a registered writer schema: the latest version of a
   * subject (string; the id is looked up once and cached for the life of the
   * serde) or an explicit schema id (number). The value is checked against
   * that schema first (longs are bigint). Throws EncodeError.
   */
  encode(subjectOrSchemaId: string | number, value: unknown): Promise<Buffer>;

  /**
   * The same encoding as a synchronous function, for callers that encode many
   * values with one writer schema: resolves once the schema is looked up
   * (rejects like `encode`); the function throws EncodeError INVALID_VALUE.
   */
  encoder(subjectOrSchemaId: string | number): Promise<(value: unknown) => Buffer>;

  /**
   * Decodes a Kafka value. With `reader`, the writer schema is resolved into
   * that record schema (Avro schema resolution) and the value has its
   * generated TS type; without, the value is read with the writer schema as
   * is. The body is bounded by the bytes present before it is read (no
   * declared count or length makes decoding loop or allocate past it; see
   * compileBodyCheck). Throws DecodeError: retriable only for REGISTRY_UNAVAILABLE, every
   * other code is the message's fault (dead-letter it). Any other error is a
   * bug. Never mutates `buffer`; `value` shares no memory with it (avsc
   * copies bytes fields out).
   */
  decode<T = unknown>(buffer: Buffer, reader?: KnownSchema<T>): Promise<DecodedRecord<T>>;
}
