import fc from 'fast-check';
import { compareBytes } from '../../sinks/store/compareBytes.ts';
import type { NamespaceStore, TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';

/**
 * The reference model of last-write-wins for the model-based contract tests:
 * random puts, deletes and (optionally) partition and prefix clears with colliding
 * write times, applied in shuffled orders, must leave the store equal to
 * what this model computes.
 */

export type ModelOp =
  | { readonly kind: 'put'; readonly key: number; readonly value: Uint8Array; readonly writeTime: bigint; readonly arrival: number }
  | { readonly kind: 'delete'; readonly key: number; readonly writeTime: bigint; readonly arrival: number }
  /** A `mutateMany` mutation `{ clear: true }` with no other writes: a partition tombstone at `writeTime`. */
  | { readonly kind: 'clear'; readonly writeTime: bigint; readonly arrival: number }
  /** A mutation `{ clear: true, clearPrefix }` with no other writes: a range tombstone over one key group at `writeTime`. */
  | { readonly kind: 'prefixClear'; readonly group: number; readonly writeTime: bigint; readonly arrival: number }
  /** One mutation `{ clear: true, additions: [key = value] }`: the clear is written at `writeTime - 1`. */
  | { readonly kind: 'clearPut'; readonly key: number; readonly value: Uint8Array; readonly writeTime: bigint; readonly arrival: number };

/** What an op writes, as timestamped facts about one key or the whole partition. */
type Fact =
  /** `group-<g>`: every key of key group g (`modelKeyGroup`). */
  | { readonly key: number | 'all' | `group-${number}`; readonly kind: 'tombstone'; readonly writeTime: bigint }
  | { readonly key: number; readonly kind: 'value'; readonly value: Uint8Array; readonly writeTime: bigint };

function factsOf(op: ModelOp): Fact[] {
  switch (op.kind) {
    case 'put':
      return [{ key: op.key, kind: 'value', value: op.value, writeTime: op.writeTime }];
    case 'delete':
      return [{ key: op.key, kind: 'tombstone', writeTime: op.writeTime }];
    case 'clear':
      return [{ key: 'all', kind: 'tombstone', writeTime: op.writeTime }];
    case 'prefixClear':
      return [{ key: `group-${op.group}`, kind: 'tombstone', writeTime: op.writeTime }];
    case 'clearPut':
      return [
        ...(op.writeTime > 0n ? [{ key: 'all' as const, kind: 'tombstone' as const, writeTime: op.writeTime - 1n }] : []),
        { key: op.key, kind: 'value', value: op.value, writeTime: op.writeTime },
      ];
  }
}

/** What the model says key `k` must hold. */
export type Expected =
  | { readonly kind: 'absent' }
  /** Exactly this value (all tied winners were inline, so the byte rule decides). */
  | { readonly kind: 'exact'; readonly value: Uint8Array; readonly writeTime: bigint }
  /** One of these values: a tie involving a chunked value, settled by a backend-specific rule. */
  | { readonly kind: 'oneOf'; readonly values: readonly Uint8Array[]; readonly writeTime: bigint };

export const MODEL_KEYS = 4;

/**
 * Keys come in two groups, so prefix clears hit some keys and not others:
 * even keys start with 0x10, odd ones with 0xff (a prefix with no end bound,
 * so a prefix clear runs "to the end").
 */
export const MODEL_KEY_GROUPS: readonly Uint8Array[] = [Uint8Array.of(0x10), Uint8Array.of(0xff)];
export const modelKeyGroup = (k: number): number => k % 2;
export const modelKey = (k: number): Uint8Array => Uint8Array.of(...(MODEL_KEY_GROUPS[modelKeyGroup(k)] as Uint8Array), k);

/**
 * Ops over a few keys and write times 1..6 (so ties are common), values
 * inline or above `maxInline`; with `clears`, some ops are partition clears
 * (alone or with an addition in the same mutation) and, with `prefixClears`
 * too, clears of one key group.
 */
export function modelOpsArbitrary(maxInline: number, { clears = false, prefixClears = false }: { clears?: boolean; prefixClears?: boolean } = {}): fc.Arbitrary<ModelOp[]> {
  const small = fc.uint8Array({ minLength: 0, maxLength: 6 });
  const large = fc.uint8Array({ minLength: maxInline + 1, maxLength: maxInline + 40 });
  const common = {
    key: fc.integer({ min: 0, max: MODEL_KEYS - 1 }),
    writeTime: fc.bigInt({ min: 1n, max: 6n }),
    arrival: fc.integer(),
  };
  const put = fc.record({ kind: fc.constant('put' as const), value: fc.oneof(small, small, large), ...common });
  const del = fc.record({ kind: fc.constant('delete' as const), ...common });
  if (!clears) return fc.array(fc.oneof(put, put, del), { minLength: 1, maxLength: 24 });
  const clear = fc.record({ kind: fc.constant('clear' as const), writeTime: common.writeTime, arrival: common.arrival });
  const clearPut = fc.record({ kind: fc.constant('clearPut' as const), value: fc.oneof(small, large), ...common });
  const prefixClear = fc.record({
    kind: fc.constant('prefixClear' as const),
    group: fc.integer({ min: 0, max: MODEL_KEY_GROUPS.length - 1 }),
    writeTime: common.writeTime,
    arrival: common.arrival,
  });
  return fc.array(
    fc.oneof(
      { arbitrary: put, weight: 6 },
      { arbitrary: del, weight: 2 },
      { arbitrary: clear, weight: 1 },
      { arbitrary: clearPut, weight: 1 },
      ...(prefixClears ? [{ arbitrary: prefixClear, weight: 2 }] : []),
    ),
    { minLength: 1, maxLength: 24 },
  );
}

export function expectedState(ops: readonly ModelOp[], maxInline: number): Expected[] {
  return Array.from({ length: MODEL_KEYS }, (_, k): Expected => {
    const mine = ops.flatMap(factsOf).filter((f) => f.key === 'all' || f.key === k || f.key === `group-${modelKeyGroup(k)}`);
    if (mine.length === 0) return { kind: 'absent' };
    const top = mine.reduce((t, f) => (f.writeTime > t ? f.writeTime : t), 0n);
    const winners = mine.filter((f) => f.writeTime === top);
    const values = winners.flatMap((f) => (f.kind === 'value' ? [f.value] : []));
    if (values.length < winners.length) return { kind: 'absent' }; // a tombstone wins the tie
    if (values.some((v) => v.length > maxInline)) return { kind: 'oneOf', values, writeTime: top };
    const greatest = values.reduce((g, v) => (compareBytes(v, g) > 0 ? v : g));
    return { kind: 'exact', value: greatest, writeTime: top };
  });
}

/** Applies one op to partition `id` of `ns`; clears go through `store.mutateMany`. */
export async function applyOp(store: TwoLevelMapStore, ns: NamespaceStore, id: string, op: ModelOp): Promise<void> {
  const mutation = { namespace: ns.namespace, id, writeTime: op.writeTime, clear: true, deletions: [] };
  switch (op.kind) {
    case 'put':
      return ns.put(id, modelKey(op.key), op.value, op.writeTime);
    case 'delete':
      return ns.delete(id, modelKey(op.key), op.writeTime);
    case 'clear':
      return store.mutateMany([{ ...mutation, additions: [] }]);
    case 'prefixClear':
      return store.mutateMany([{ ...mutation, clearPrefix: MODEL_KEY_GROUPS[op.group] as Uint8Array, additions: [] }]);
    case 'clearPut':
      return store.mutateMany([{ ...mutation, additions: [{ key: modelKey(op.key), value: op.value }] }]);
  }
}
