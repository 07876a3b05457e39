import type { StackEndpoints } from './endpoints.ts';
import { registryUrl } from './servers/registryServer.ts';
import type { StackConfig } from './stackConfig.ts';

/** The endpoints of the local JVM stack described by `config`. */
export function localEndpoints(config: StackConfig): StackEndpoints {
  return {
    source: 'local',
    kafkaBrokers: [`127.0.0.1:${config.ports.kafka}`],
    schemaRegistryUrl: registryUrl(config),
    cassandraContactPoints: [`127.0.0.1:${config.ports.cassandraCql}`],
    cassandraLocalDc: 'datacenter1',
  };
}
