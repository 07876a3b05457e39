import type { Cell, CellAddress, SlicePage, TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { MirrorLogic, RecountLogic, RecountTarget } from './createRecounter.ts';
import { cellsOf, countWriteTime, holdsCount, SETTLE_ATTEMPTS, unsettled } from './settleCount.ts';

type MirroredLogic = RecountLogic & { readonly mirror: MirrorLogic };

/** What one probe of a target found: whether the mirror's marker is there, the head of its source, and its count cell. */
export interface TargetProbe {
  readonly mirrored: boolean;
  readonly head: SlicePage;
  readonly previous: Cell | undefined;
}

/**
 * Reads, for many targets at once, the first `maxCells` + 1 source cells and
 * the count cell (one multi-partition read of each kind per namespace,
 * `sliceMany` and `getCells`, side by side), then the mirror's marker of
 * those whose source has more than `maxCells` cells only. A source with at
 * most `maxCells` cells has no marker: the marker is written only after a
 * read found more, and link cells are never deleted (docs/architecture.md §5
 * "Counts"), so most targets (every fresh vertex) cost no mirror read.
 */
export async function probeTargets(store: TwoLevelMapStore, logic: MirroredLogic, targets: readonly RecountTarget[], maxCells: number): Promise<TargetProbe[]> {
  const m = logic.mirror;
  const [heads, counts] = await Promise.all([
    inGroups(targets, (t) => t.source.namespace, (ns, group) => store.namespace(ns).sliceMany(group.map((t) => t.source.id), { limit: maxCells + 1 })),
    inGroups(targets, (t) => t.result.namespace, (ns, group) => store.namespace(ns).getCells(group.map((t): CellAddress => ({ id: t.result.id, key: t.result.key })))),
  ]);
  const large = targets.flatMap((_, i) => (fitsDirectCount(heads[i] as SlicePage, maxCells) ? [] : [i]));
  const markers = large.length === 0 ? [] : await store.namespace(m.namespace).getCells(large.map((i) => ({ id: (targets[i] as RecountTarget).result.id, key: m.markerKey(targets[i] as RecountTarget) })));
  const mirrored = new Set(large.filter((_, j) => markers[j] !== undefined));
  return targets.map((_, i) => ({ mirrored: mirrored.has(i), head: heads[i] as SlicePage, previous: counts[i] }));
}

/** Whether a source's head is the whole source, of at most `maxCells` cells. */
const fitsDirectCount = (head: SlicePage, maxCells: number): boolean => head.pageState === undefined && head.cells.length <= maxCells;

/** Whether a probed target is counted from its source: not mirrored, and the whole source fits in `maxCells`. */
export function isDirect(probe: TargetProbe, maxCells: number): boolean {
  return !probe.mirrored && fitsDirectCount(probe.head, maxCells);
}

/**
 * settleCount for many targets counted straight from their source (delta
 * mode's small targets, docs/architecture.md §5 "Counts"), in batches: a
 * count cell that the probe found holding its source's count is left alone;
 * each other count is written after the count it replaces, then every cell is read back
 * beside a fresh count of its source (multi-partition reads), and those that
 * disagree are written again, up to SETTLE_ATTEMPTS times. `probes` are the
 * first reads. One result per target, in order: a target that did not
 * settle, or whose batch failed, is rejected (its marks are kept).
 */
export async function settleDirectCounts(store: TwoLevelMapStore, logic: RecountLogic, targets: readonly RecountTarget[], probes: readonly TargetProbe[], pageSize: number, t0: bigint): Promise<PromiseSettledResult<void>[]> {
  const entries = targets.map((target, i) => {
    const probe = probes[i] as TargetProbe;
    const read = { previous: probe.previous, count: countOf(logic, probe.head.cells) };
    return { target, read, result: holdsCount(read.previous, logic.encodeCount(read.count)) ? FULFILLED : undefined };
  });
  // A count cell that already holds the count of its source, both read after the marks, is settled: no write to check.
  let pending = entries.filter((e) => e.result === undefined);
  try {
    for (let attempt = 1; attempt <= SETTLE_ATTEMPTS && pending.length > 0; attempt++) {
      await store.mutateMany(pending.map(({ target: { result }, read }) => ({
        namespace: result.namespace,
        id: result.id,
        writeTime: countWriteTime(read.previous, t0),
        deletions: [],
        additions: [{ key: result.key, value: logic.encodeCount(read.count) }],
      })));
      const again = await readBack(store, logic, pending.map((e) => e.target), pageSize);
      pending.forEach((e, j) => {
        e.read = again[j] as ReadBack;
        if (holdsCount(e.read.previous, logic.encodeCount(e.read.count))) e.result = FULFILLED;
      });
      pending = pending.filter((e) => e.result === undefined);
    }
  } catch (reason) {
    for (const e of pending) e.result = { status: 'rejected', reason };
  }
  return entries.map((e) => e.result ?? { status: 'rejected', reason: unsettled(e.target.result) });
}

const FULFILLED: PromiseSettledResult<void> = Object.freeze({ status: 'fulfilled', value: undefined });

interface ReadBack {
  readonly previous: Cell | undefined;
  readonly count: bigint;
}

/** The count cells and a count of each whole source, side by side. */
async function readBack(store: TwoLevelMapStore, logic: RecountLogic, targets: readonly RecountTarget[], pageSize: number): Promise<ReadBack[]> {
  const [pages, counts] = await Promise.all([
    inGroups(targets, (t) => t.source.namespace, (ns, group) => store.namespace(ns).sliceMany(group.map((t) => t.source.id), { limit: pageSize })),
    inGroups(targets, (t) => t.result.namespace, (ns, group) => store.namespace(ns).getCells(group.map((t): CellAddress => ({ id: t.result.id, key: t.result.key })))),
  ]);
  return Promise.all(targets.map(async (t, i) => {
    const page = pages[i] as SlicePage;
    // A source that grew past a page since the probe is counted in full (the next round mirrors it).
    const count = page.pageState === undefined ? countOf(logic, page.cells) : await countAll(store, logic, t, pageSize);
    return { previous: counts[i], count };
  }));
}

function countOf(logic: RecountLogic, cells: readonly Cell[]): bigint {
  return cells.reduce((n, cell) => n + (logic.counts(cell) ? 1n : 0n), 0n);
}

async function countAll(store: TwoLevelMapStore, logic: RecountLogic, target: RecountTarget, pageSize: number): Promise<bigint> {
  let n = 0n;
  for await (const cell of cellsOf(store, target.source, pageSize)) if (logic.counts(cell)) n++;
  return n;
}

/** `read` once per namespace for the targets in it; the answers back in the order of `targets`. */
async function inGroups<R>(targets: readonly RecountTarget[], namespaceOf: (t: RecountTarget) => string, read: (namespace: string, group: RecountTarget[]) => Promise<readonly R[]>): Promise<R[]> {
  const groups = new Map<string, number[]>();
  targets.forEach((t, i) => {
    const ns = namespaceOf(t);
    const group = groups.get(ns);
    if (group === undefined) groups.set(ns, [i]);
    else group.push(i);
  });
  const out = new Array<R>(targets.length);
  await Promise.all([...groups].map(async ([ns, indexes]) => {
    const answers = await read(ns, indexes.map((i) => targets[i] as RecountTarget));
    indexes.forEach((i, j) => (out[i] = answers[j] as R));
  }));
  return out;
}
