/**
 * One way an existing keyspace or topic differs from the config, as `init` reports it:
 * `apply` differences `init --apply` changes itself (then `after`, if set, is what the
 * operator must still run); `manual` ones it cannot change safely, and `command` says what to run.
 */
export type ConfigDrift = {
  /** "keyspace edgestream", "topic edgestream.edge-mutations". */
  readonly subject: string;
  /** What differs, with what exists and what the config says: "replication factor 1, config topics.replicationFactor 3". */
  readonly difference: string;
} & (
  | { readonly fix: 'apply'; readonly after?: string }
  | { readonly fix: 'manual'; readonly command: string }
);

/** "keyspace k: replication factor in dc1 1, config 3 (init --apply alters it; then run …)". */
export function describeDrift(d: ConfigDrift): string {
  const how = d.fix === 'apply' ? `init --apply changes it${d.after ? `; then run: ${d.after}` : ''}` : `init cannot change it safely; ${d.command}`;
  return `${d.subject}: ${d.difference} (${how})`;
}
