import { bytesEqual, StoreError, type Cell, type TwoLevelMapStore } from '../../../sinks/store/index.ts';

/** A count to (re)compute: the cells of `source` (all, or those under `prefix`) folded by `weigh`, stored under `result`. */
export interface Tally {
  readonly source: { readonly namespace: string; readonly id: string; readonly prefix?: Uint8Array };
  readonly result: { readonly namespace: string; readonly id: string; readonly key: Uint8Array };
  /** What one source cell adds (1/0 for "counts", a stored count for a sum). */
  weigh(cell: Cell): bigint;
  encode(count: bigint): Uint8Array;
  /** Deleted with each write of the count, at its write time (the full recount invalidates the delta mirror's marker). */
  readonly alongside?: { readonly namespace: string; readonly id: string; readonly deletions: readonly Uint8Array[] };
}

/** Rounds of write-and-verify before a recount gives up for this round (its marks are kept). */
export const SETTLE_ATTEMPTS = 5;

/**
 * Computes `tally` and writes it after the count it replaces
 * (max(t0, that count's write time + 1)), then settles races with other
 * writers of the same cell (an instance whose round is still in flight when
 * its shard changes hands): it reads the cell back and computes again, and
 * rewrites until the two agree. So when it returns, the cell held a count
 * that matched a read of the source made after this call started, and any
 * write that lands later is checked the same way by its own writer. The cell
 * and the source are read side by side (neither decision depends on the
 * order of the two reads). A cell found already holding the count is left
 * alone (nothing to check) unless `alwaysWrite` (a write time is needed after
 * this call started) or the tally has an `alongside`. Returns the write time
 * of its last write, or of the cell left alone.
 */
export async function settleCount(store: TwoLevelMapStore, tally: Tally, pageSize: number, t0: bigint, alwaysWrite = false): Promise<bigint> {
  const { namespace, id, key } = tally.result;
  const cells = store.namespace(namespace);
  const readBoth = async () => {
    const [previous, count] = await Promise.all([cells.get(id, key), computeTally(store, tally, pageSize)]);
    return { previous, count };
  };
  let { previous, count } = await readBoth();
  if (!alwaysWrite && tally.alongside === undefined && previous !== undefined && holdsCount(previous, tally.encode(count))) return previous.writeTime;
  for (let attempt = 1; attempt <= SETTLE_ATTEMPTS; attempt++) {
    const writeTime = countWriteTime(previous, t0);
    const also = tally.alongside === undefined ? [] : [{ ...tally.alongside, writeTime, additions: [] }];
    await store.mutateMany([{ namespace, id, writeTime, deletions: [], additions: [{ key, value: tally.encode(count) }] }, ...also]);
    ({ previous, count } = await readBoth());
    if (holdsCount(previous, tally.encode(count))) return writeTime;
  }
  throw unsettled(tally.result);
}

/** A count is written just after the count it replaces, or at t0: it supersedes whichever instance and clock wrote that one. */
export function countWriteTime(previous: Cell | undefined, t0: bigint): bigint {
  return previous === undefined || previous.writeTime < t0 ? t0 : previous.writeTime + 1n;
}

/** Whether the count cell as read back holds `encoded`, the count of a read of the source made after the write. */
export function holdsCount(previous: Cell | undefined, encoded: Uint8Array): boolean {
  return previous !== undefined && bytesEqual(previous.value, encoded);
}

/** Errors `unsettled` made: a count that kept changing while it was written (its marks are kept), not a store failure. */
const UNSETTLED = new WeakSet<Error>();

export function unsettled(result: Tally['result']): StoreError {
  const error = new StoreError('timeout', `recount of ${result.namespace}[${result.id}] did not settle after ${SETTLE_ATTEMPTS} writes; its marks are kept`);
  UNSETTLED.add(error);
  return error;
}

/** Whether `error` says a count kept changing under its writes (a vertex written to while it was counted), not that a store call failed. */
export function isUnsettled(error: unknown): boolean {
  return error instanceof Error && UNSETTLED.has(error);
}

async function computeTally(store: TwoLevelMapStore, tally: Tally, pageSize: number): Promise<bigint> {
  let count = 0n;
  for await (const cell of cellsOf(store, tally.source, pageSize)) count += tally.weigh(cell);
  return count;
}

/** Every live cell of a partition (or of one key prefix of it), page by page. */
export async function* cellsOf(store: TwoLevelMapStore, source: Tally['source'], pageSize: number): AsyncGenerator<Cell> {
  const ns = store.namespace(source.namespace);
  let pageState: string | undefined;
  do {
    const query = { limit: pageSize, ...(pageState === undefined ? {} : { pageState }) };
    const page = source.prefix === undefined ? await ns.slice(source.id, query) : await ns.scanPrefix(source.id, source.prefix, query);
    yield* page.cells;
    pageState = page.pageState;
  } while (pageState !== undefined);
}
