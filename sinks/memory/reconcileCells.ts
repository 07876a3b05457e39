import { compareBytes } from '../store/compareBytes.ts';

/** What the memory store keeps per key: the winning write so far, value or tombstone. */
export type StoredCell =
  | { readonly kind: 'value'; readonly writeTime: bigint; readonly value: Uint8Array }
  | { readonly kind: 'tombstone'; readonly writeTime: bigint };

/**
 * Cassandra's cell reconciliation, so the memory store converges to the same
 * state for any arrival order: the later write time wins; at equal times a
 * tombstone beats a value; between two values the greater bytes (unsigned)
 * win. See Cassandra `Cells.reconcile` / `Conflicts.resolveRegular`.
 * Commutative, associative and idempotent, which is what makes replays safe.
 */
export function reconcileCells(a: StoredCell, b: StoredCell): StoredCell {
  if (a.writeTime !== b.writeTime) return a.writeTime > b.writeTime ? a : b;
  if (a.kind !== b.kind) return a.kind === 'tombstone' ? a : b;
  if (a.kind === 'tombstone' || b.kind === 'tombstone') return a;
  return compareBytes(a.value, b.value) >= 0 ? a : b;
}
