import { CassandraContainer } from '@testcontainers/cassandra';
import { KafkaContainer } from '@testcontainers/kafka';
import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import type { StackEndpoints } from './endpoints.ts';
import { StackError } from './stackError.ts';
import { STACK_VERSIONS } from './stackConfig.ts';

/** Images matching the versions the local JVM stack pins (docker-compose.yml uses the same). */
export const DOCKER_IMAGES = {
  kafka: 'confluentinc/cp-kafka:7.9.0', // Kafka 3.9 line; KafkaContainer knows this image's config
  cassandra: 'cassandra:5.0',
  registry: `apicurio/apicurio-registry:${STACK_VERSIONS.apicurio}`,
} as const;

/** True when a Docker engine answers within `timeoutMs` (a bare client binary is not enough). */
export async function dockerEngineReachable(timeoutMs = 5_000): Promise<boolean> {
  const probe = getContainerRuntimeClient().then(() => true, () => false);
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
  return Promise.race([probe, timeout]);
}

/** Starts Kafka (KRaft), Cassandra and Apicurio through testcontainers; returns endpoints and a stop function. */
export async function startDockerStack(log: (line: string) => void): Promise<{ endpoints: StackEndpoints; stop: () => Promise<void> }> {
  const started: StartedTestContainer[] = [];
  const stop = async () => {
    await Promise.allSettled(started.map((c) => c.stop()));
  };
  try {
    log('starting containers with testcontainers');
    const [kafka, cassandra, registry] = await Promise.all([
      new KafkaContainer(DOCKER_IMAGES.kafka).withKraft().start(),
      new CassandraContainer(DOCKER_IMAGES.cassandra).start(),
      new GenericContainer(DOCKER_IMAGES.registry)
        .withExposedPorts(8080)
        .withEnvironment({ APICURIO_RULES_GLOBAL_COMPATIBILITY: 'BACKWARD', APICURIO_CCOMPAT_USE_CANONICAL_HASH: 'true' })
        .withWaitStrategy(Wait.forHttp('/apis/ccompat/v7/subjects', 8080))
        .start(),
    ]);
    started.push(kafka, cassandra, registry);
    return {
      endpoints: {
        source: 'docker',
        kafkaBrokers: [`${kafka.getHost()}:${kafka.getMappedPort(9093)}`],
        schemaRegistryUrl: `http://${registry.getHost()}:${registry.getMappedPort(8080)}/apis/ccompat/v7`,
        cassandraContactPoints: [cassandra.getContactPoint()],
        cassandraLocalDc: cassandra.getDatacenter(),
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw new StackError('DOCKER_FAILED', `starting the stack in Docker failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
