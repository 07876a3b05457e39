import { compareBytes } from '../store/compareBytes.ts';
import type { Cell } from '../store/TwoLevelMapStore.ts';
import { reconcileCells, type StoredCell } from './reconcileCells.ts';

/** A deleted key range `[from, to)` (absent bounds are open), hiding writes at <= `writeTime`. */
export interface RangeTombstone {
  readonly from?: Uint8Array;
  readonly to?: Uint8Array;
  readonly writeTime: bigint;
}

interface Entry {
  readonly key: Uint8Array;
  cell: StoredCell;
}

/**
 * One partition: entries sorted by key (unsigned) plus the range tombstones
 * written to it. Invariant: no stored entry is shadowed by a range tombstone
 * (writes that would be are dropped, and a new range tombstone prunes what it
 * covers), so every stored value cell is visible.
 */
export class MemoryPartition {
  private readonly entries: Entry[] = [];
  private readonly rangeTombstones: RangeTombstone[] = [];

  write(key: Uint8Array, cell: StoredCell): void {
    if (this.rangeTombstones.some((rt) => covers(rt, key) && rt.writeTime >= cell.writeTime)) return;
    const { index, found } = this.search(key);
    if (found) {
      const entry = this.entries[index] as Entry;
      entry.cell = reconcileCells(entry.cell, cell);
    } else {
      this.entries.splice(index, 0, { key, cell });
    }
  }

  /**
   * Records a range tombstone (`{ writeTime }` alone is a whole-partition
   * clear). One already recorded that covers its range at a time >= its own
   * makes it a no-op, so repeated clears and range deletes do not pile up.
   */
  deleteRange(tombstone: RangeTombstone): void {
    if (this.rangeTombstones.some((rt) => subsumes(rt, tombstone))) return;
    this.rangeTombstones.push(tombstone);
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i] as Entry;
      if (covers(tombstone, entry.key) && entry.cell.writeTime <= tombstone.writeTime) this.entries.splice(i, 1);
    }
  }

  get(key: Uint8Array): Cell | undefined {
    const { index, found } = this.search(key);
    const cell = found ? (this.entries[index] as Entry).cell : undefined;
    return cell?.kind === 'value' ? { key, value: cell.value, writeTime: cell.writeTime } : undefined;
  }

  /** Live cells with `start <= key < end` in `order`, at most `max` of them. */
  slice(
    start: Uint8Array,
    end: Uint8Array | undefined,
    order: 'asc' | 'desc',
    max: number,
  ): Cell[] {
    const lo = this.search(start).index;
    const hi = end === undefined ? this.entries.length : this.search(end).index;
    const out: Cell[] = [];
    const step = order === 'asc' ? 1 : -1;
    for (let i = order === 'asc' ? lo : hi - 1; i >= lo && i < hi && out.length < max; i += step) {
      const { key, cell } = this.entries[i] as Entry;
      if (cell.kind === 'value') out.push({ key, value: cell.value, writeTime: cell.writeTime });
    }
    return out;
  }

  /** Binary search: the index of `key`, or where it would be inserted. */
  private search(key: Uint8Array): { index: number; found: boolean } {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareBytes((this.entries[mid] as Entry).key, key);
      if (c === 0) return { index: mid, found: true };
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return { index: lo, found: false };
  }
}

function covers(rt: RangeTombstone, key: Uint8Array): boolean {
  return (rt.from === undefined || compareBytes(key, rt.from) >= 0) && (rt.to === undefined || compareBytes(key, rt.to) < 0);
}

/** `outer` hides everything `inner` hides: a range at least as wide, at a time at least as late. */
function subsumes(outer: RangeTombstone, inner: RangeTombstone): boolean {
  return (
    outer.writeTime >= inner.writeTime &&
    (outer.from === undefined || (inner.from !== undefined && compareBytes(outer.from, inner.from) <= 0)) &&
    (outer.to === undefined || (inner.to !== undefined && compareBytes(inner.to, outer.to) <= 0))
  );
}
