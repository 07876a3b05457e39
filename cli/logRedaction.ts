import type { LoggerOptions } from 'pino';

/**
 * Where a secret could sit in an object handed to the logger: a client's options (kafkajs
 * `sasl.password`, `ssl.key`; cassandra-driver `credentials`, `sslOptions.key`; the registry
 * client's `auth`), request headers, a bearer token. No code logs these on purpose; this is the
 * net under a careless `logger.info({ options })`, at every depth a client's options sit at.
 */
const SECRET_KEYS = ['password', 'authorization', 'bearerToken'];
const SECRET_PARENTS: readonly (readonly [string, string])[] = [['ssl', 'key'], ['sslOptions', 'key'], ['tls', 'key'], ['credentials', 'password'], ['auth', 'password'], ['sasl', 'password']];
const DEPTHS = ['', '*.', '*.*.', '*.*.*.', '*.*.*.*.'];

export const LOG_REDACT_PATHS: readonly string[] = [
  ...DEPTHS.flatMap((d) => SECRET_KEYS.map((k) => `${d}${k}`)),
  ...DEPTHS.flatMap((d) => SECRET_PARENTS.map(([p, k]) => `${d}${p}.${k}`)),
];

/** pino's `redact` option for every edgestream logger. */
export const logRedaction: NonNullable<LoggerOptions['redact']> = { paths: [...LOG_REDACT_PATHS], censor: '[redacted]' };
