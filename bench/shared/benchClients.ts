import { Kafka, logLevel, type Admin, type SASLOptions } from 'kafkajs';
import { connectClients } from '../../cli/connectClients.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';

/**
 * The CLI's clients (the Kafka port and the registry) and a kafkajs admin client, which the
 * benchmarks use for what the port does not offer (listing, describing and deleting consumer groups).
 */
export async function connectBenchClients(endpoints: StackEndpoints, clientId: string): Promise<Awaited<ReturnType<typeof connectClients>> & { admin: Admin }> {
  const { ssl, sasl } = endpoints.security?.kafka ?? {};
  const raw = new Kafka({
    clientId,
    brokers: [...endpoints.kafkaBrokers],
    logLevel: logLevel.WARN,
    ...(ssl === undefined ? {} : { ssl }),
    ...(sasl === undefined ? {} : { sasl: { ...sasl } as SASLOptions }),
  });
  return { ...(await connectClients(endpoints, clientId)), admin: raw.admin() };
}
