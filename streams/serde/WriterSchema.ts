import type avro from 'avsc';
import type { BodyCheck } from './compileBodyCheck.ts';

/** A registered Avro record schema, built the edgestream way (avroTypeFor). */
export interface WriterSchema {
  readonly schemaId: number;
  /** Namespace-qualified record name, e.g. `io.edgestream.EdgeMutation`. */
  readonly fullName: string;
  readonly type: avro.Type;
  /** Bounds a body written with `type` before avsc reads it (compileBodyCheck). */
  readonly checkBody: BodyCheck;
}
