import { describe, expect, it } from 'vitest';
import { packagesLoadedBy } from '../test/support/packagesLoadedBy.ts';

// The CLI answers help (and flag errors) in ~0.1 s of CPU because each command loads its modules
// when it runs; one static import of a command module loads the clients again (seconds at each start).
describe('edgestream help loads commander only', () => {
  it.each(['--help', 'lag --help', 'out --help', 'run --help'])('%s', async (command) => {
    const loaded = await packagesLoadedBy(command.split(' '));
    expect(loaded).toContain('commander');
    expect(loaded.filter((p) => ['kafkajs', 'cassandra-driver', 'fastify', 'pino', 'testcontainers', '@kafkajs/confluent-schema-registry', 'zod'].includes(p))).toEqual([]);
  }, 60_000);
});
