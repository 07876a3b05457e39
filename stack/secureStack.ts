import fs from 'node:fs';
import path from 'node:path';
import type { StackEndpoints } from './endpoints.ts';
import { stackDown, stackStatus, stackUp, type Log, type ServerStatus, type UpResult } from './localStack.ts';
import { ensureSecureMaterial, readSecureMaterial, SECURE_STACK_USER, type SecureMaterial } from './secureMaterial.ts';
import { cassandraAdminSession, SECURE_SERVERS, secureRegistryUrl } from './secureServers.ts';
import { loadStackConfig, type StackConfig } from './stackConfig.ts';

/**
 * The secured local stack (`npm run stack:up -- --secure`): Kafka on SASL_SSL with SCRAM users,
 * Cassandra with PasswordAuthenticator and client TLS, the registry on https with basic auth,
 * certificates and passwords made at the first start. It has its own dir and ports (offset 300
 * unless `EDGESTREAM_SECURE_STACK_PORT_OFFSET` says otherwise), so it runs beside the plain stack.
 */
export function loadSecureStackConfig(env: NodeJS.ProcessEnv = process.env, repoRoot = process.cwd()): StackConfig {
  return loadStackConfig({
    ...env,
    EDGESTREAM_STACK_DIR: env['EDGESTREAM_SECURE_STACK_DIR'] || path.join(repoRoot, '.stack', 'secure'),
    EDGESTREAM_STACK_PORT_OFFSET: env['EDGESTREAM_SECURE_STACK_PORT_OFFSET'] || '300',
    // Started while the plain stack and the tests run: on 2 busy cores Cassandra took over 180 s.
    EDGESTREAM_STACK_READY_TIMEOUT_MS: env['EDGESTREAM_STACK_READY_TIMEOUT_MS'] || '420000',
  }, repoRoot);
}

/** Creates the client role (all permissions on all keyspaces, not a superuser) and retires the default superuser password. */
async function provisionCassandraRoles(config: StackConfig, m: SecureMaterial): Promise<void> {
  const admin = await cassandraAdminSession(config, m);
  try {
    // Role statements take no bind markers; the passwords are hex, made by ensureSecureMaterial.
    await admin.execute(`CREATE ROLE IF NOT EXISTS ${SECURE_STACK_USER} WITH PASSWORD = '${m.secret('cassandra')}' AND LOGIN = true AND SUPERUSER = false`);
    await admin.execute(`GRANT ALL PERMISSIONS ON ALL KEYSPACES TO ${SECURE_STACK_USER}`);
    await admin.execute(`ALTER ROLE cassandra WITH PASSWORD = '${m.secret('cassandraAdmin')}'`);
  } finally {
    await admin.shutdown().catch(() => {});
  }
}

export async function secureStackUp(config: StackConfig, log: Log): Promise<UpResult> {
  const m = await ensureSecureMaterial(config.runDir);
  const result = await stackUp(config, log, SECURE_SERVERS);
  await provisionCassandraRoles(config, m);
  fs.writeFileSync(secureConfigPath(config), `${JSON.stringify({ edgeTypes: [{ name: 'follows' }, { name: 'likes' }], cluster: secureClusterSection(config) }, null, 2)}\n`);
  return result;
}

export const secureStackDown = (config: StackConfig, log: Log): Promise<void> => stackDown(config, log, SECURE_SERVERS);

export const secureStackStatus = (config: StackConfig): Promise<ServerStatus[]> => stackStatus(config, SECURE_SERVERS);

/** A project config file: the default edge types and the `cluster` section that reaches the secured stack. */
export const secureConfigPath = (config: StackConfig): string => path.join(config.runDir, 'edgestream.config.json');

/**
 * The secured stack as the config's `cluster` section (schemas/config/clusterConfig.ts, which
 * validates it where it is read): secrets and the CA by file, as a deployment gives them.
 */
export function secureClusterSection(config: StackConfig): Record<'kafka' | 'schemaRegistry' | 'cassandra', Record<string, unknown>> {
  const m = readSecureMaterial(config.runDir);
  const tls = { caFile: m.certs.caPem, rejectUnauthorized: true };
  return {
    kafka: { brokers: [`127.0.0.1:${config.ports.kafka}`], tls, sasl: { mechanism: 'scram-sha-512', username: SECURE_STACK_USER, passwordFile: m.secretFile('kafka') } },
    schemaRegistry: { url: secureRegistryUrl(config), tls, auth: { basic: { username: SECURE_STACK_USER, passwordFile: m.secretFile('registry') } } },
    cassandra: { contactPoints: [`127.0.0.1:${config.ports.cassandraCql}`], localDataCenter: 'datacenter1', tls, auth: { username: SECURE_STACK_USER, passwordFile: m.secretFile('cassandra') } },
  };
}

/** The secured stack's addresses, without its security (which only the `cluster` section carries). */
export function secureEndpoints(config: StackConfig): StackEndpoints {
  return {
    source: 'local',
    kafkaBrokers: [`127.0.0.1:${config.ports.kafka}`],
    schemaRegistryUrl: secureRegistryUrl(config),
    cassandraContactPoints: [`127.0.0.1:${config.ports.cassandraCql}`],
    cassandraLocalDc: 'datacenter1',
  };
}
