import type { TimedKey } from '../store/consolidateMutations.ts';
import type { BoundStatement } from './cassandraSession.ts';
import type { NamespaceStatements } from './namespaceStatements.ts';
import { asBuffer } from './namespaceRuntime.ts';

/** Keys per `deleteRows` statement: Cassandra builds one row deletion per key either way; this keeps one statement's IN list small. */
export const MAX_KEYS_PER_DELETE = 128;

/**
 * The row deletions of one partition as statements: the keys deleted at one
 * write time go in one `DELETE … WHERE id = ? AND key IN ?` (up to
 * MAX_KEYS_PER_DELETE), a lone key as `deleteRow`. A batch statement costs
 * Cassandra and the driver per statement, and a chunk's deletions mostly
 * share a time: the recounter deletes the marks of a round at the times they
 * were read with, which a fan-out chunk's follow-ups share, and a chunk's
 * follow-ups delete its intents at one stamp. Same rows, same timestamps:
 * the outcome is that of one statement per key.
 */
export function deletionStatements(cql: Pick<NamespaceStatements, 'deleteRow' | 'deleteRows'>, id: string, deletions: readonly TimedKey[]): BoundStatement[] {
  const byTime = new Map<bigint, Buffer[]>();
  for (const d of deletions) {
    const keys = byTime.get(d.writeTime);
    if (keys === undefined) byTime.set(d.writeTime, [asBuffer(d.key)]);
    else keys.push(asBuffer(d.key));
  }
  const statements: BoundStatement[] = [];
  for (const [writeTime, keys] of byTime) {
    for (let i = 0; i < keys.length; i += MAX_KEYS_PER_DELETE) {
      const piece = keys.slice(i, i + MAX_KEYS_PER_DELETE);
      statements.push(piece.length === 1 ? { query: cql.deleteRow, params: [writeTime, id, piece[0] as Buffer] } : { query: cql.deleteRows, params: [writeTime, id, piece] });
    }
  }
  return statements;
}
