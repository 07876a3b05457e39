// Lint config: typescript-eslint recommended, plus the folder boundaries from docs/architecture.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Folders and what they may not import (dependencies point downward only). processors/
 * may use the storage port and the namespace codecs, never a backend; only cli/ (and
 * the HTTP server) import metrics/.
 */
const forbidden = {
  schemas: ['streams', 'processors', 'sinks', 'stack', 'cli', 'reads', 'metrics', 'server'],
  sinks: ['streams', 'processors', 'stack', 'cli', 'reads', 'metrics', 'server'],
  processors: ['streams', 'sinks/cassandra', 'sinks/memory', 'stack', 'cli', 'reads', 'metrics', 'server'],
  streams: ['stack', 'cli', 'reads', 'metrics', 'server'],
  stack: ['streams', 'processors', 'sinks', 'schemas', 'cli', 'reads', 'metrics', 'server'],
  reads: ['streams', 'sinks/cassandra', 'sinks/memory', 'stack', 'cli', 'metrics', 'server'],
  // metrics/ turns the hooks below it (runtime snapshots, cache stats, the reader's observer) into Prometheus series.
  metrics: ['stack', 'cli', 'sinks/cassandra', 'sinks/memory', 'server'],
  // The HTTP API routes over the reader and the producer SDK; clients and the stack come from cli/ (the composition root).
  server: ['sinks/cassandra', 'sinks/memory', 'stack', 'cli', 'processors'],
};

/**
 * The Kafka clients stay behind the Kafka port (streams/kafka, docs/architecture.md §2): only a client's
 * adapter imports it, and kafkajs also the stack's broker-readiness probe (stack/ sits below streams/ and
 * may not import it). Tests and benchmarks may still name them.
 */
const KAFKA_CLIENTS = {
  kafkajs: { name: 'kafkajs', message: 'kafkajs is imported by its adapter only (streams/kafka/kafkajs/): use the Kafka port, streams/kafka/KafkaPort.ts' },
  platformatic: { name: '@platformatic/kafka', message: '@platformatic/kafka is imported by its adapter only (streams/kafka/platformatic/): use the Kafka port, streams/kafka/KafkaPort.ts' },
};
const CLIENT_ALLOWED = [
  ['streams/kafka/kafkajs/**/*.ts', 'kafkajs'],
  ['stack/servers/kafkaServer.ts', 'kafkajs'],
  ['streams/kafka/platformatic/**/*.ts', 'platformatic'],
];
const folderOf = (file) => file.split('/')[0];

/** The folder boundary of `folder` (its `forbidden` list), and every Kafka client but `client`. */
function restrictedImports(folder, { client }) {
  const banned = forbidden[folder] ?? [];
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: banned.map((b) => ({
          group: [`**/${b}/*`, `**/${b}/**`],
          message: `${folder}/ must not depend on ${b}/ (see docs/architecture.md)`,
        })),
        paths: Object.entries(KAFKA_CLIENTS).filter(([name]) => name !== client).map(([, path]) => path),
      },
    ],
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.stack/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // cli/ may import every folder (the composition root), but no Kafka client.
  ...[...Object.keys(forbidden), 'cli'].map((folder) => ({
    files: [`${folder}/**/*.ts`],
    ignores: [`${folder}/**/*.test.ts`],
    rules: restrictedImports(folder, {}),
  })),
  ...CLIENT_ALLOWED.map(([files, client]) => ({
    files: [files],
    ignores: ['**/*.test.ts'],
    rules: restrictedImports(folderOf(files), { client }),
  })),
);
