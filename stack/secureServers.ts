import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { promisify } from 'node:util';
import cassandra from 'cassandra-driver';
import { readSecureMaterial, SECURE_STACK_USER, type SecureMaterial } from './secureMaterial.ts';
import { cassandraServer } from './servers/cassandraServer.ts';
import { kafkaAnswers, kafkaServer } from './servers/kafkaServer.ts';
import type { LaunchPlan, LocalServer, ServerContext } from './servers/localServer.ts';
import { registryServer } from './servers/registryServer.ts';
import { StackError } from './stackError.ts';
import type { StackConfig } from './stackConfig.ts';

const execFileAsync = promisify(execFile);

/**
 * The secured stack's servers: the plain stack's three, each prepared as usual and then locked
 * down — Kafka's one client listener SASL_SSL with SCRAM users, Cassandra with PasswordAuthenticator
 * and client TLS, the registry on https with basic auth — and probed for readiness through that
 * security (a plain probe could never succeed against them).
 */

/** The secured registry's API root (https; the plain http port is not opened). */
export function secureRegistryUrl(config: StackConfig): string {
  return `https://127.0.0.1:${config.ports.registryHttp}/apis/ccompat/v7`;
}

/** The value after `flag` in a launch plan's arguments (e.g. the classpath after -cp). */
function argAfter(plan: LaunchPlan, flag: string): string {
  const i = plan.args.indexOf(flag);
  const value = i < 0 ? undefined : plan.args[i + 1];
  if (value === undefined) throw new StackError('START_FAILED', `the launch plan has no ${flag} argument to secure`);
  return value;
}

// ---- Kafka: SASL_SSL with SCRAM users created at format time -------------------------------

function kafkaSecurityProperties(config: StackConfig, m: SecureMaterial): string {
  const { kafka, kafkaController } = config.ports;
  const jaas = `org.apache.kafka.common.security.scram.ScramLoginModule required username="broker" password="${m.secret('kafkaBroker')}";`;
  return `
# ---- secured stack (stack/secureServers.ts): these override the lines above ----
listeners=SASL_SSL://127.0.0.1:${kafka},CONTROLLER://127.0.0.1:${kafkaController}
advertised.listeners=SASL_SSL://127.0.0.1:${kafka}
inter.broker.listener.name=SASL_SSL
# The KRaft controller listener stays plaintext on loopback: only this node talks to it.
listener.security.protocol.map=CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL
sasl.enabled.mechanisms=SCRAM-SHA-512,SCRAM-SHA-256
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=${jaas}
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=${jaas}
ssl.keystore.type=PKCS12
ssl.keystore.location=${m.certs.keystore}
ssl.keystore.password=${m.certs.storePassword}
ssl.key.password=${m.certs.storePassword}
ssl.truststore.type=PKCS12
ssl.truststore.location=${m.certs.truststore}
ssl.truststore.password=${m.certs.storePassword}
`;
}

const secureKafka: LocalServer = {
  ...kafkaServer,
  async prepare(ctx: ServerContext): Promise<LaunchPlan> {
    const plan = await kafkaServer.prepare(ctx);
    const m = readSecureMaterial(ctx.config.runDir);
    const props = plan.args[plan.args.length - 1] as string;
    fs.appendFileSync(props, kafkaSecurityProperties(ctx.config, m));
    // SCRAM credentials live in the cluster metadata: in KRaft they are written at format time.
    // The plain prepare formatted without them; format again, same cluster id, with them.
    const logDir = path.join(ctx.dir, 'data');
    const clusterId = /^cluster\.id=(.+)$/m.exec(fs.readFileSync(path.join(logDir, 'meta.properties'), 'utf8'))?.[1];
    if (!clusterId) throw new StackError('START_FAILED', `kafka: no cluster.id in ${logDir}/meta.properties`);
    fs.rmSync(logDir, { recursive: true, force: true });
    fs.mkdirSync(logDir, { recursive: true });
    const scram = (mechanism: string, name: string, password: string) => ['--add-scram', `${mechanism}=[name=${name},password=${password}]`];
    try {
      await execFileAsync(plan.bin, [
        '-Xmx256m', `-Dlog4j.configuration=file:${path.join(ctx.dir, 'tools-log4j.properties')}`,
        '-cp', argAfter(plan, '-cp'), 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', props,
        ...scram('SCRAM-SHA-512', 'broker', m.secret('kafkaBroker')),
        ...scram('SCRAM-SHA-512', SECURE_STACK_USER, m.secret('kafka')),
        ...scram('SCRAM-SHA-256', SECURE_STACK_USER, m.secret('kafka')),
      ], { timeout: 120_000 });
    } catch (e) {
      const err = e as { stderr?: string; stdout?: string };
      throw new StackError('START_FAILED', `kafka storage format with SCRAM users failed: ${err.stderr ?? ''}${err.stdout ?? ''}`, { cause: e });
    }
    return plan;
  },
  async ready(config: StackConfig): Promise<boolean> {
    const m = readSecureMaterial(config.runDir);
    return kafkaAnswers('127.0.0.1', config.ports.kafka, 1, {
      ssl: { ca: fs.readFileSync(m.certs.caPem, 'utf8') },
      sasl: { mechanism: 'scram-sha-512', username: SECURE_STACK_USER, password: m.secret('kafka') },
    });
  },
};

// ---- Cassandra: PasswordAuthenticator, CassandraAuthorizer, client TLS ----------------------

function securedCassandraYaml(yaml: string, m: SecureMaterial): string {
  const swap = (text: string, from: string, to: string) => {
    if (!text.includes(from)) throw new StackError('START_FAILED', `cassandra.yaml has no "${from}" line to secure`);
    return text.replace(from, to);
  };
  const authed = swap(swap(yaml, 'authenticator: AllowAllAuthenticator', 'authenticator: PasswordAuthenticator'), 'authorizer: AllowAllAuthorizer', 'authorizer: CassandraAuthorizer');
  return `${authed}client_encryption_options:
  enabled: true
  optional: false
  keystore: ${m.certs.keystore}
  keystore_password: ${m.certs.storePassword}
  store_type: PKCS12
  require_client_auth: false
`;
}

/** A CQL session to the secured node as `username`, over TLS trusting the stack's CA. */
export function secureCassandraClient(config: StackConfig, m: SecureMaterial, username: string, password: string): cassandra.Client {
  return new cassandra.Client({
    contactPoints: [`127.0.0.1:${config.ports.cassandraCql}`],
    localDataCenter: 'datacenter1',
    sslOptions: { ca: fs.readFileSync(m.certs.caPem, 'utf8') },
    authProvider: new cassandra.auth.PlainTextAuthProvider(username, password),
    socketOptions: { connectTimeout: 2_000 },
  });
}

/** The superuser's password: the stack's own once `provisionCassandraRoles` changed it, else Cassandra's default. */
export async function cassandraAdminSession(config: StackConfig, m: SecureMaterial): Promise<cassandra.Client> {
  let last: unknown;
  for (const password of [m.secret('cassandraAdmin'), 'cassandra']) {
    const client = secureCassandraClient(config, m, 'cassandra', password);
    try {
      await client.connect();
      return client;
    } catch (e) {
      last = e;
      await client.shutdown().catch(() => {});
    }
  }
  throw last;
}

const secureCassandra: LocalServer = {
  ...cassandraServer,
  async prepare(ctx: ServerContext): Promise<LaunchPlan> {
    const plan = await cassandraServer.prepare(ctx);
    const yamlPath = path.join(ctx.dir, 'cassandra.yaml');
    fs.writeFileSync(yamlPath, securedCassandraYaml(fs.readFileSync(yamlPath, 'utf8'), readSecureMaterial(ctx.config.runDir)));
    // The default superuser is created 10 s after start unless told otherwise; readiness waits for it.
    return { ...plan, args: [...plan.args.slice(0, 1), '-Dcassandra.superuser_setup_delay_ms=0', ...plan.args.slice(1)] };
  },
  async ready(config: StackConfig): Promise<boolean> {
    const client = await cassandraAdminSession(config, readSecureMaterial(config.runDir));
    await client.shutdown().catch(() => {});
    return true;
  },
};

// ---- Registry: https only, basic auth from Quarkus's embedded user realm --------------------

/**
 * Apicurio's own authentication is OIDC (a Keycloak, which the stack does not have), but its build
 * enables Quarkus's embedded user realm: basic auth against users named in config, here one with
 * the admin role, every path authenticated. Quarkus reads `config/application.properties` from its
 * working directory (the server's dir), so no password appears on a command line.
 */
function registryApplicationProperties(config: StackConfig, m: SecureMaterial): string {
  return `quarkus.http.ssl-port=${config.ports.registryHttp}
quarkus.http.insecure-requests=disabled
quarkus.http.ssl.certificate.key-store-file=${m.certs.keystore}
quarkus.http.ssl.certificate.key-store-file-type=PKCS12
quarkus.http.ssl.certificate.key-store-password=${m.certs.storePassword}
quarkus.http.auth.basic=true
quarkus.security.users.embedded.plain-text=true
quarkus.security.users.embedded.users.${SECURE_STACK_USER}=${m.secret('registry')}
quarkus.security.users.embedded.roles.${SECURE_STACK_USER}=sr-admin
quarkus.http.auth.permission.everything.paths=/*
quarkus.http.auth.permission.everything.policy=authenticated
`;
}

/** GET `url` over https trusting `ca`, with basic auth; resolves with the status code. */
export function httpsStatus(url: string, ca: string, username: string, password: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca, auth: `${username}:${password}`, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

const secureRegistry: LocalServer = {
  ...registryServer,
  async prepare(ctx: ServerContext): Promise<LaunchPlan> {
    const plan = await registryServer.prepare(ctx);
    fs.mkdirSync(path.join(ctx.dir, 'config'), { recursive: true });
    fs.writeFileSync(path.join(ctx.dir, 'config', 'application.properties'), registryApplicationProperties(ctx.config, readSecureMaterial(ctx.config.runDir)), { mode: 0o600 });
    return plan;
  },
  async ready(config: StackConfig): Promise<boolean> {
    const m = readSecureMaterial(config.runDir);
    return (await httpsStatus(`${secureRegistryUrl(config)}/subjects`, fs.readFileSync(m.certs.caPem, 'utf8'), SECURE_STACK_USER, m.secret('registry'))) === 200;
  },
};

/** Start order as the plain stack's: Cassandra, the slowest, first. */
export const SECURE_SERVERS: readonly LocalServer[] = [secureCassandra, secureKafka, secureRegistry];
