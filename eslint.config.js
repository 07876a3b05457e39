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
 * kafkajs stays behind the Kafka port (streams/kafka, docs/architecture.md §3): only its adapter imports it,
 * and the stack's broker-readiness probe (stack/ sits below streams/ and may not import it). Tests and
 * benchmarks may still name it.
 */
const KAFKAJS = {
  name: 'kafkajs',
  message: 'kafkajs is imported by its adapter only (streams/kafka/kafkajs/): use the Kafka port, streams/kafka/KafkaPort.ts',
};
const KAFKAJS_ALLOWED = ['streams/kafka/kafkajs/**/*.ts', 'stack/servers/kafkaServer.ts'];
const folderOf = (file) => file.split('/')[0];

/** The folder boundary of `folder` (its `forbidden` list), and kafkajs unless `kafkajs` is allowed. */
function restrictedImports(folder, { kafkajs }) {
  const banned = forbidden[folder] ?? [];
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: banned.map((b) => ({
          group: [`**/${b}/*`, `**/${b}/**`],
          message: `${folder}/ must not depend on ${b}/ (see docs/architecture.md)`,
        })),
        ...(kafkajs ? {} : { paths: [KAFKAJS] }),
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
  // cli/ may import every folder (the composition root), but not kafkajs.
  ...[...Object.keys(forbidden), 'cli'].map((folder) => ({
    files: [`${folder}/**/*.ts`],
    ignores: [`${folder}/**/*.test.ts`],
    rules: restrictedImports(folder, { kafkajs: false }),
  })),
  ...KAFKAJS_ALLOWED.map((files) => ({
    files: [files],
    ignores: ['**/*.test.ts'],
    rules: restrictedImports(folderOf(files), { kafkajs: true }),
  })),
);
