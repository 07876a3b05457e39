import fc from 'fast-check';
import { compareBytes } from '../../sinks/store/compareBytes.ts';
import type { NamespaceStore } from '../../sinks/store/TwoLevelMapStore.ts';

/**
 * The reference model of last-write-wins for the model-based contract test:
 * random puts and deletes with colliding write times, applied in shuffled
 * orders, must leave the store equal to what this model computes.
 */

export type ModelOp =
  | { readonly kind: 'put'; readonly key: number; readonly value: Uint8Array; readonly writeTime: bigint; readonly arrival: number }
  | { readonly kind: 'delete'; readonly key: number; readonly writeTime: bigint; readonly arrival: number };

/** What the model says key `k` must hold. */
export type Expected =
  | { readonly kind: 'absent' }
  /** Exactly this value (all tied winners were inline, so the byte rule decides). */
  | { readonly kind: 'exact'; readonly value: Uint8Array; readonly writeTime: bigint }
  /** One of these values: a tie involving a chunked value, settled by a backend-specific rule. */
  | { readonly kind: 'oneOf'; readonly values: readonly Uint8Array[]; readonly writeTime: bigint };

export const MODEL_KEYS = 4;

export const modelKey = (k: number): Uint8Array => Uint8Array.of(0x10, k);

/** Ops over a few keys and write times 1..6 (so ties are common), values inline or above `maxInline`. */
export function modelOpsArbitrary(maxInline: number): fc.Arbitrary<ModelOp[]> {
  const small = fc.uint8Array({ minLength: 0, maxLength: 6 });
  const large = fc.uint8Array({ minLength: maxInline + 1, maxLength: maxInline + 40 });
  const common = {
    key: fc.integer({ min: 0, max: MODEL_KEYS - 1 }),
    writeTime: fc.bigInt({ min: 1n, max: 6n }),
    arrival: fc.integer(),
  };
  const put = fc.record({ kind: fc.constant('put' as const), value: fc.oneof(small, small, large), ...common });
  const del = fc.record({ kind: fc.constant('delete' as const), ...common });
  return fc.array(fc.oneof(put, put, del), { minLength: 1, maxLength: 24 });
}

export function expectedState(ops: readonly ModelOp[], maxInline: number): Expected[] {
  return Array.from({ length: MODEL_KEYS }, (_, k): Expected => {
    const mine = ops.filter((op) => op.key === k);
    if (mine.length === 0) return { kind: 'absent' };
    const top = mine.reduce((t, op) => (op.writeTime > t ? op.writeTime : t), 0n);
    const winners = mine.filter((op) => op.writeTime === top);
    const values = winners.flatMap((op) => (op.kind === 'put' ? [op.value] : []));
    if (values.length < winners.length) return { kind: 'absent' }; // a tombstone wins the tie
    if (values.some((v) => v.length > maxInline)) return { kind: 'oneOf', values, writeTime: top };
    const greatest = values.reduce((g, v) => (compareBytes(v, g) > 0 ? v : g));
    return { kind: 'exact', value: greatest, writeTime: top };
  });
}

export async function applyOp(ns: NamespaceStore, id: string, op: ModelOp): Promise<void> {
  if (op.kind === 'put') await ns.put(id, modelKey(op.key), op.value, op.writeTime);
  else await ns.delete(id, modelKey(op.key), op.writeTime);
}
