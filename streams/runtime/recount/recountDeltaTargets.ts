import pLimit from 'p-limit';
import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { mapBounded } from '../../../sinks/store/mapBounded.ts';
import { isDirect, probeTargets, settleDirectCounts, type TargetProbe } from './countDirectly.ts';
import type { RecountTarget } from './createRecounter.ts';
import { recountByDelta, type MirroredLogic } from './recountByDelta.ts';

/** Targets probed (and small ones counted) together: one multi-partition read of each kind (Cassandra's `readIdsPerRequest`). */
const BATCH = 100;
const BATCHES_IN_FLIGHT = 8;

export interface DeltaRoundOptions {
  readonly pageSize: number;
  /** A target without the marker and with at most this many source cells is counted from its source. */
  readonly directCountMaxCells: number;
  /** Mirrored targets recounted at once. */
  readonly concurrency: number;
}

/**
 * A delta round's recounts (docs/architecture.md §5 "Counts"): the targets
 * are probed in batches (marker, head of the source, count cell); those
 * without the marker whose source has at most `directCountMaxCells` cells
 * are counted from it, in the same batches; the others by their mirror, one
 * by one (recountByDelta). One result per target, in order; a failed batch
 * fails its targets (their marks are kept).
 */
export async function recountDeltaTargets(
  store: TwoLevelMapStore,
  logic: MirroredLogic,
  targets: readonly { readonly target: RecountTarget; readonly markKeys: readonly Uint8Array[] }[],
  o: DeltaRoundOptions,
  t0: bigint,
): Promise<PromiseSettledResult<unknown>[]> {
  const results = new Array<PromiseSettledResult<unknown>>(targets.length);
  const batches = Array.from({ length: Math.ceil(targets.length / BATCH) }, (_, b) => Array.from({ length: Math.min(BATCH, targets.length - b * BATCH) }, (_, i) => b * BATCH + i));
  const at = (i: number) => targets[i] as (typeof targets)[number];
  // Mirrored targets share `o.concurrency` slots across batches: a batch starts its mirrored ones as soon as it has probed them.
  const slot = pLimit(Math.max(1, o.concurrency));
  await mapBounded(batches, BATCHES_IN_FLIGHT, async (batch) => {
    let probes: TargetProbe[];
    try {
      probes = await probeTargets(store, logic, batch.map((i) => at(i).target), o.directCountMaxCells);
    } catch (reason) {
      for (const i of batch) results[i] = { status: 'rejected', reason };
      return;
    }
    const direct: { readonly index: number; readonly probe: TargetProbe }[] = [];
    const mirrored: { readonly index: number; readonly mirrored: boolean }[] = [];
    batch.forEach((index, j) => {
      const probe = probes[j] as TargetProbe;
      if (isDirect(probe, o.directCountMaxCells)) direct.push({ index, probe });
      else mirrored.push({ index, mirrored: probe.mirrored });
    });
    const [settled, byMirror] = await Promise.all([
      settleDirectCounts(store, logic, direct.map((d) => at(d.index).target), direct.map((d) => d.probe), o.pageSize, t0),
      mapBounded(mirrored, mirrored.length, (m) => slot(() => recountByDelta(store, logic, at(m.index).target, at(m.index).markKeys, o.pageSize, t0, m.mirrored))),
    ]);
    direct.forEach(({ index }, j) => (results[index] = settled[j] as PromiseSettledResult<void>));
    mirrored.forEach(({ index }, j) => (results[index] = byMirror[j] as PromiseSettledResult<void>));
  });
  return results;
}

