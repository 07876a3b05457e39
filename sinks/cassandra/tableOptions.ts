import type { TableOptions } from './cassandraStoreConfig.ts';

/**
 * CQL `WITH` clauses as small pure functions (JanusGraph's `compactionOptions`,
 * `compressionOptions`, `gcGraceSeconds`). Inputs are already validated enum
 * values, so the text they produce is fixed vocabulary.
 */

export function compactionOptions(strategy: NonNullable<TableOptions['compaction']>): string {
  return `compaction = {'class': '${strategy}'}`;
}

export function compressionOptions(compressor: NonNullable<TableOptions['compression']>): string {
  return compressor === 'none' ? `compression = {'enabled': 'false'}` : `compression = {'class': '${compressor}'}`;
}

export function gcGraceSeconds(seconds: number): string {
  return `gc_grace_seconds = ${Math.trunc(seconds)}`;
}

/** Table options plus those a namespace sets for itself (never configurable store-wide: a TTL on every table would expire links). */
export type NamespaceTableOptions = TableOptions & { readonly defaultTimeToLiveSeconds?: number | undefined };

/** ` WITH CLUSTERING ORDER BY (...) AND <options>`; only options that were set are emitted. */
export function tableOptionsClause(clusteringOrder: string, options: NamespaceTableOptions): string {
  const clauses = [`CLUSTERING ORDER BY (${clusteringOrder})`];
  if (options.compaction !== undefined) clauses.push(compactionOptions(options.compaction));
  if (options.compression !== undefined) clauses.push(compressionOptions(options.compression));
  if (options.gcGraceSeconds !== undefined) clauses.push(gcGraceSeconds(options.gcGraceSeconds));
  if (options.defaultTimeToLiveSeconds !== undefined) clauses.push(`default_time_to_live = ${Math.trunc(options.defaultTimeToLiveSeconds)}`);
  return ` WITH ${clauses.join(' AND ')}`;
}
