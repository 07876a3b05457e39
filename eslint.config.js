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
  ...Object.entries(forbidden).map(([folder, banned]) => ({
    files: [`${folder}/**/*.ts`],
    ignores: [`${folder}/**/*.test.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: banned.map((b) => ({
            group: [`**/${b}/*`, `**/${b}/**`],
            message: `${folder}/ must not depend on ${b}/ (see docs/architecture.md)`,
          })),
        },
      ],
    },
  })),
);
