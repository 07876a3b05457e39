import { COMPATIBILITY, SchemaType, type SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { KnownSchema } from '../../schemas/index.ts';
import { classifyRegistryFailure } from './classifyRegistryFailure.ts';
import { SchemaRegistrationError } from './SchemaRegistrationError.ts';
import { subjectFor } from './subjectFor.ts';

/** Where one topic's schema ended up. */
export interface RegisteredSubject {
  readonly topic: string;
  readonly subject: string;
  readonly schemaId: number;
}

/**
 * Registers each topic's schema under its TopicNameStrategy subject with
 * BACKWARD compatibility, in order, stopping at the first failure.
 *
 * Idempotent: registering content the subject already has returns the same
 * id and adds no version (Confluent, and Apicurio with
 * apicurio.ccompat.use-canonical-hash=true for whitespace/key-order changes).
 *
 * kafkajs `register()` first reads GET /config/{subject}: a 404 means a new
 * subject (it registers, then PUTs BACKWARD); a 200 must say BACKWARD or it
 * throws. Apicurio 3.x answers 200 with its global default rule for any
 * existing subject, so the registry must run with
 * apicurio.rules.global.compatibility=BACKWARD (STACK-RECIPE 3.4); otherwise
 * this fails with COMPATIBILITY_MISMATCH naming the level it saw.
 *
 * Throws SchemaRegistrationError (INCOMPATIBLE_SCHEMA when the registry
 * rejects a new version under BACKWARD).
 */
export async function registerSchemas(
  registry: Pick<SchemaRegistry, 'register'>,
  schemaByTopic: Readonly<Record<string, KnownSchema<unknown>>>,
): Promise<RegisteredSubject[]> {
  const registered: RegisteredSubject[] = [];
  for (const [topic, schema] of Object.entries(schemaByTopic)) {
    const subject = subjectFor(topic, schema);
    try {
      const { id } = await registry.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(schema.avsc) },
        { subject, compatibility: COMPATIBILITY.BACKWARD },
      );
      registered.push({ topic, subject, schemaId: id });
    } catch (e) {
      throw toRegistrationError(e, subject, schema);
    }
  }
  return registered;
}

function toRegistrationError(e: unknown, subject: string, schema: KnownSchema<unknown>): unknown {
  const what = `${schema.fullName} v${schema.version} under subject ${subject}`;
  const reason = e instanceof Error ? e.message : String(e);
  switch (classifyRegistryFailure(e)) {
    case 'CONFLICT':
      return new SchemaRegistrationError('INCOMPATIBLE_SCHEMA', subject, `registry rejected ${what} as not BACKWARD compatible with the registered versions: ${reason}`, { cause: e });
    case 'INVALID_SCHEMA':
      return new SchemaRegistrationError('INVALID_SCHEMA', subject, `${what} is not a valid Avro schema: ${reason}`, { cause: e });
    case 'COMPATIBILITY_MISMATCH':
      return new SchemaRegistrationError('COMPATIBILITY_MISMATCH', subject, `cannot register ${what}: ${reason} (set the subject, or Apicurio's apicurio.rules.global.compatibility, to BACKWARD)`, { cause: e });
    case 'NOT_FOUND':
    case 'UNAVAILABLE':
      return new SchemaRegistrationError('REGISTRY_UNAVAILABLE', subject, `registering ${what} failed: ${reason}`, { cause: e });
    case undefined:
      return e;
  }
}
