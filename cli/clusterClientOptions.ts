import fs from 'node:fs';
import https from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import type { ClusterConfig, ClusterTls } from '../schemas/config/clusterConfig.ts';
import type { ClientSecurity } from '../stack/clientSecurity.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';

/** Where secrets and PEM files come from (injected by tests). */
export interface SecretSources {
  readonly env: NodeJS.ProcessEnv;
  readonly readFile: (path: string) => string;
}

const PROCESS_SOURCES: SecretSources = { env: process.env, readFile: (p) => fs.readFileSync(p, 'utf8') };

/**
 * The config's `cluster` section as the clients take it: the endpoints, and for each client its
 * TLS and credentials — kafkajs `ssl`/`sasl`, the registry client's https agent and basic auth
 * or bearer header, cassandra-driver `sslOptions` and a PlainTextAuthProvider's credentials.
 * Reads every `<name>Env`/`<name>File` secret now, failing with the field's path; no secret
 * appears in an error message.
 */
export function clusterClientOptions(cluster: ClusterConfig, sources: SecretSources = PROCESS_SOURCES): StackEndpoints {
  const read = (field: string, path: string): string => {
    try {
      return sources.readFile(path);
    } catch (e) {
      throw new Error(`cluster.${field}: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  /** A secret given as `<name>Env` or `<name>File` (the schema made sure exactly one is set); a file's trailing newline is trimmed. */
  const secret = (field: string, env: string | undefined, file: string | undefined): string => {
    if (env !== undefined) {
      const value = sources.env[env];
      if (value === undefined || value === '') throw new Error(`cluster.${field}Env: the environment variable ${env} is not set`);
      return value;
    }
    return read(`${field}File`, file as string).replace(/\r?\n$/, '');
  };
  const tls = (field: string, t: ClusterTls | undefined): ConnectionOptions | undefined =>
    t && {
      rejectUnauthorized: t.rejectUnauthorized,
      ...(t.caFile === undefined ? {} : { ca: read(`${field}.tls.caFile`, t.caFile) }),
      ...(t.certFile === undefined ? {} : { cert: read(`${field}.tls.certFile`, t.certFile) }),
      ...(t.keyFile === undefined ? {} : { key: read(`${field}.tls.keyFile`, t.keyFile) }),
    };

  const { kafka, schemaRegistry, cassandra } = cluster;
  const kafkaTls = tls('kafka', kafka.tls);
  const sasl = kafka.sasl && ({
    mechanism: kafka.sasl.mechanism,
    username: kafka.sasl.username,
    password: secret('kafka.sasl.password', kafka.sasl.passwordEnv, kafka.sasl.passwordFile),
  });
  const registryTls = tls('schemaRegistry', schemaRegistry.tls);
  const basic = schemaRegistry.auth?.basic;
  const bearer = schemaRegistry.auth?.bearer;
  const bearerToken = bearer && secret('schemaRegistry.auth.bearer.token', bearer.tokenEnv, bearer.tokenFile);
  const cassandraTls = tls('cassandra', cassandra.tls);
  const cassandraAuth = cassandra.auth;

  const security: ClientSecurity = {
    kafka: { ...(kafkaTls ? { ssl: kafkaTls } : {}), ...(sasl ? { sasl } : {}) },
    registry: {
      ...(registryTls ? { agent: new https.Agent(registryTls) } : {}),
      ...(basic ? { auth: { username: basic.username, password: secret('schemaRegistry.auth.basic.password', basic.passwordEnv, basic.passwordFile) } } : {}),
      ...(bearerToken === undefined ? {} : { middlewares: [bearerMiddleware(bearerToken)] }),
    },
    cassandra: {
      ...(cassandraTls ? { sslOptions: cassandraTls } : {}),
      ...(cassandraAuth ? { credentials: { username: cassandraAuth.username, password: secret('cassandra.auth.password', cassandraAuth.passwordEnv, cassandraAuth.passwordFile) } } : {}),
    },
  };
  return {
    source: 'config',
    kafkaBrokers: kafka.brokers,
    schemaRegistryUrl: schemaRegistry.url,
    cassandraContactPoints: cassandra.contactPoints,
    cassandraLocalDc: cassandra.localDataCenter,
    security,
    kafkaClient: kafka.client,
  };
}

type RegistryMiddleware = NonNullable<ClientSecurity['registry']['middlewares']>[number];

/** A mappersmith middleware that adds `Authorization: Bearer <token>` to every registry request. */
function bearerMiddleware(token: string): RegistryMiddleware {
  return () => ({
    prepareRequest: async (next) => (await next()).enhance({ headers: { authorization: `Bearer ${token}` } }),
  });
}
