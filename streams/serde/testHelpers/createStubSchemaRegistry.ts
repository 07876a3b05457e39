import avro from 'avsc';
import type { SchemaRegistryReader } from '../SchemaRegistryReader.ts';

/** The HTTP error shape the kafkajs client throws (name `ResponseError`, numeric `status`). */
export function registryResponseError(status: number, message = `status ${status}`): Error {
  return Object.assign(new Error(message), { name: 'ResponseError', status });
}

export interface StubSchemaRegistry extends SchemaRegistryReader {
  /** Number of getSchema calls per id, to assert caching. */
  readonly lookups: Map<number, number>;
  /** While set, every call throws this instead of answering. */
  failWith: Error | undefined;
}

/**
 * In-memory stand-in for the kafkajs SchemaRegistry, for unit tests only:
 * answers getSchema like the real client (an avsc type built with avsc's
 * defaults, so longs are JS numbers there) and a 404 ResponseError for
 * unknown ids or subjects.
 */
export function createStubSchemaRegistry(spec: {
  readonly schemasById: Readonly<Record<number, object>>;
  readonly latestIdBySubject?: Readonly<Record<string, number>>;
}): StubSchemaRegistry {
  const stub: StubSchemaRegistry = {
    lookups: new Map(),
    failWith: undefined,
    async getSchema(id: number) {
      stub.lookups.set(id, (stub.lookups.get(id) ?? 0) + 1);
      if (stub.failWith) throw stub.failWith;
      const schema = spec.schemasById[id];
      if (!schema) throw registryResponseError(404, `Schema ${id} not found.`);
      return avro.Type.forSchema(schema as avro.Schema) as never;
    },
    async getLatestSchemaId(subject: string) {
      if (stub.failWith) throw stub.failWith;
      const id = spec.latestIdBySubject?.[subject];
      if (id === undefined) throw registryResponseError(404, `Subject '${subject}' not found.`);
      return id;
    },
  };
  return stub;
}
