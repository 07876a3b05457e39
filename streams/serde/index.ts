// Public surface of streams/serde: Confluent wire-format Avro over a schema registry.
export type { AvroSerde, DecodedRecord } from './AvroSerde.ts';
export { createAvroSerde, type AvroSerdeOptions } from './createAvroSerde.ts';
export { DecodeError, type DecodeErrorCode } from './DecodeError.ts';
export { decodeWireFrame, type WireFrame } from './decodeWireFrame.ts';
export { EncodeError, type EncodeErrorCode } from './EncodeError.ts';
export { encodeWireFrame } from './encodeWireFrame.ts';
export { registerSchemas, type RegisteredSubject } from './registerSchemas.ts';
export { SchemaRegistrationError, type SchemaRegistrationErrorCode } from './SchemaRegistrationError.ts';
export type { SchemaRegistryReader } from './SchemaRegistryReader.ts';
export { subjectFor } from './subjectFor.ts';
