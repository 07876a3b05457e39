/**
 * Internal: the registry holds a schema under this id, but not one edgestream
 * can read (JSON/Protobuf, a non-record, or a union avsc cannot unwrap).
 * Boundaries map it to their WRONG_SCHEMA code.
 */
export class NotAnAvroRecordError extends Error {
  override readonly name = 'NotAnAvroRecordError';
}
