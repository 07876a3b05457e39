import { defineConfig } from 'vitest/config';

// Two projects: `unit` (co-located *.test.ts, pure logic, in-memory fakes only) and
// `integration` (test/**, real Kafka + registry + Cassandra brought up by globalSetup).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{streams,schemas,processors,sinks,stack,cli,reads,metrics,server,bench}/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          // The cluster project runs these on the local 3-node cluster (npm test runs it after this one).
          exclude: ['test/cluster/**'],
          environment: 'node',
          globalSetup: ['test/support/globalSetup.ts'],
          // 2 cores and one shared stack: files run one at a time.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          environment: 'node',
          // The local 3-node cluster, brought up once (no single-node stack: npm test runs this project after the integration one has stopped it).
          globalSetup: ['test/support/clusterGlobalSetup.ts'],
          fileParallelism: false,
          testTimeout: 1_200_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
