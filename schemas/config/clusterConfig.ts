import { z } from 'zod';

/**
 * The `cluster` section (docs/configuration-shape.md): where Kafka, the schema registry and
 * Cassandra are and how to reach them. Secrets are never inline: each comes as `<name>Env`
 * (an environment variable's name) or `<name>File` (a path read at start); the composition
 * root (cli/clusterClientOptions.ts) reads them and builds the clients' options.
 */

const hostPort = z.string().regex(/^[^\s:,/]+:\d{1,5}$/, 'expected host:port');

/**
 * `<name>Env` | `<name>File`, exactly one; an inline `<name>` is refused naming the field.
 * Returns the shape to spread into an object and the check to run on it.
 */
function secretField<N extends string>(name: N) {
  const shape = {
    [`${name}Env`]: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
    [`${name}File`]: z.string().min(1).optional(),
    // Accepted by the parser only so that the refinement can say how to pass it instead.
    [name]: z.unknown().optional(),
  } as Record<`${N}Env` | `${N}File`, z.ZodOptional<z.ZodString>> & Record<N, z.ZodOptional<z.ZodUnknown>>;
  const check = (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    if (value[name] !== undefined) {
      ctx.addIssue({ code: 'custom', path: [name], message: `a secret is never inline: give ${name}Env (the name of an environment variable holding it) or ${name}File (a file holding it)` });
      return;
    }
    const given = [value[`${name}Env`], value[`${name}File`]].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', path: [`${name}Env`], message: `give exactly one of ${name}Env or ${name}File` });
  };
  return { shape, check };
}

const password = secretField('password');
const token = secretField('token');

const tlsSchema = z
  .strictObject({
    /** PEM file of the CA to trust instead of the system's. */
    caFile: z.string().min(1).optional(),
    /** Client certificate and key (mutual TLS), PEM files; both or neither. */
    certFile: z.string().min(1).optional(),
    keyFile: z.string().min(1).optional(),
    rejectUnauthorized: z.boolean().default(true),
  })
  .refine((t) => (t.certFile === undefined) === (t.keyFile === undefined), { path: ['keyFile'], message: 'give certFile and keyFile together (mutual TLS) or neither' });
export type ClusterTls = z.output<typeof tlsSchema>;

const usernamePasswordSchema = z.strictObject({ username: z.string().min(1), ...password.shape }).superRefine(password.check);

/** The Kafka clients edgestream has an adapter for (streams/kafka/); kafkajs is the default. */
export const KAFKA_CLIENTS = ['kafkajs', 'platformatic'] as const;
export type KafkaClientName = (typeof KAFKA_CLIENTS)[number];

const kafkaSchema = z.strictObject({
  brokers: z.array(hostPort).min(1, 'expected at least one host:port'),
  /** Which client library talks to Kafka (EDGESTREAM_KAFKA_CLIENT when there is no cluster section). */
  client: z.enum(KAFKA_CLIENTS).default('kafkajs'),
  tls: tlsSchema.optional(),
  sasl: z.strictObject({ mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']), username: z.string().min(1), ...password.shape }).superRefine(password.check).optional(),
});

const registrySchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  tls: tlsSchema.optional(),
  auth: z
    .strictObject({
      basic: usernamePasswordSchema.optional(),
      bearer: z.strictObject({ ...token.shape }).superRefine(token.check).optional(),
    })
    .refine((a) => (a.basic === undefined) !== (a.bearer === undefined), { message: 'give exactly one of basic or bearer' })
    .optional(),
});

const cassandraSchema = z.strictObject({
  contactPoints: z.array(hostPort).min(1, 'expected at least one host:port'),
  localDataCenter: z.string().min(1),
  tls: tlsSchema.optional(),
  auth: usernamePasswordSchema.optional(),
});

export const clusterSchema = z.strictObject({ kafka: kafkaSchema, schemaRegistry: registrySchema, cassandra: cassandraSchema });
export type ClusterConfig = z.output<typeof clusterSchema>;
