import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureStackCertificates, readStackCertificates, type StackCertificates } from './secureCertificates.ts';

/** The user every client of the secured stack logs in as, on Kafka (SCRAM), Cassandra and the registry. */
export const SECURE_STACK_USER = 'edgestream';

/** Passwords of the secured stack, one file each (mode 600) under `<runDir>/secrets`. */
export const SECURE_SECRETS = {
  /** The client's SCRAM password on Kafka (`cluster.kafka.sasl.passwordFile`). */
  kafka: 'kafka.password',
  /** The broker's own SCRAM password (inter-broker listener). */
  kafkaBroker: 'kafka-broker.password',
  /** The client's Cassandra password (`cluster.cassandra.auth.passwordFile`). */
  cassandra: 'cassandra.password',
  /** What the default `cassandra` superuser's password is changed to. */
  cassandraAdmin: 'cassandra-admin.password',
  /** The client's basic-auth password on the registry (`cluster.schemaRegistry.auth.basic.passwordFile`). */
  registry: 'registry.password',
} as const;
export type SecureSecretName = keyof typeof SECURE_SECRETS;

export interface SecureMaterial {
  readonly certs: StackCertificates;
  readonly secretFile: (name: SecureSecretName) => string;
  readonly secret: (name: SecureSecretName) => string;
}

const secretsDir = (runDir: string) => path.join(runDir, 'secrets');
const tlsDir = (runDir: string) => path.join(runDir, 'tls');

function material(runDir: string, certs: StackCertificates): SecureMaterial {
  const secretFile = (name: SecureSecretName) => path.join(secretsDir(runDir), SECURE_SECRETS[name]);
  return { certs, secretFile, secret: (name) => fs.readFileSync(secretFile(name), 'utf8') };
}

/**
 * The certificates and passwords of the secured stack in `runDir`, made on first use (random
 * passwords, hex so that no config syntax needs escaping) and kept while the dir lives, so a
 * running stack and its clients agree.
 */
export async function ensureSecureMaterial(runDir: string): Promise<SecureMaterial> {
  const certs = await ensureStackCertificates(tlsDir(runDir));
  fs.mkdirSync(secretsDir(runDir), { recursive: true, mode: 0o700 });
  const m = material(runDir, certs);
  for (const name of Object.keys(SECURE_SECRETS) as SecureSecretName[]) {
    if (!fs.existsSync(m.secretFile(name))) fs.writeFileSync(m.secretFile(name), crypto.randomBytes(16).toString('hex'), { mode: 0o600 });
  }
  return m;
}

/** The material of a stack whose `ensureSecureMaterial` ran (servers' prepare and readiness probes). */
export function readSecureMaterial(runDir: string): SecureMaterial {
  return material(runDir, readStackCertificates(tlsDir(runDir)));
}
