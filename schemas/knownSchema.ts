/** A record schema as parsed from an .avsc file (the fields are checked by avsc, not here). */
export interface AvscRecord {
  readonly type: 'record';
  readonly name: string;
  readonly namespace?: string;
  readonly doc?: string;
  readonly fields: readonly unknown[];
}

/**
 * A schema edgestream knows at compile time: the parsed .avsc, the version
 * it was read from (`<Name>.v<N>.avsc`), and the subject suffix it registers
 * under (TopicNameStrategy: subject = `<topic>-<suffix>`).
 *
 * `T` is the TS type its values decode to (generated from the same .avsc);
 * it is a phantom, never set at runtime.
 */
export interface KnownSchema<T> {
  /** Short record name, e.g. `EdgeMutation`. */
  readonly name: string;
  /** Namespace-qualified name, e.g. `io.edgestream.EdgeMutation`: what decoders match writer schemas on. */
  readonly fullName: string;
  readonly version: number;
  readonly subjectSuffix: 'key' | 'value';
  readonly avsc: AvscRecord;
  readonly __valueType?: T;
}

/** Builds a KnownSchema, deriving the names from the .avsc itself so they cannot drift. */
export function knownSchema<T>(spec: {
  readonly avsc: AvscRecord;
  readonly version: number;
  readonly subjectSuffix: 'key' | 'value';
}): KnownSchema<T> {
  const { avsc, version, subjectSuffix } = spec;
  const fullName = avsc.namespace && !avsc.name.includes('.') ? `${avsc.namespace}.${avsc.name}` : avsc.name;
  return Object.freeze({ name: fullName.slice(fullName.lastIndexOf('.') + 1), fullName, version, subjectSuffix, avsc });
}
