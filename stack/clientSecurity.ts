import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { ConnectionOptions } from 'node:tls';

/**
 * TLS and credentials for the three clients, with secrets already read. Built from the
 * config's `cluster` section by cli/clusterClientOptions.ts; every place that builds a
 * client from `StackEndpoints` spreads the matching part in.
 */
export interface ClientSecurity {
  readonly kafka: KafkaSecurity;
  readonly registry: Pick<ConstructorParameters<typeof SchemaRegistry>[0], 'auth' | 'agent' | 'middlewares'>;
  readonly cassandra: {
    readonly sslOptions?: ConnectionOptions;
    readonly credentials?: { readonly username: string; readonly password: string };
  };
}

/** Kafka's TLS and SASL, the shape streams/kafka's KafkaConnection takes (stack/ may not import streams/). */
export interface KafkaSecurity {
  readonly ssl?: boolean | ConnectionOptions;
  readonly sasl?: { readonly mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; readonly username: string; readonly password: string };
}
