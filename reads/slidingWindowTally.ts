/**
 * A sliding-window sum of (bytes, rows, rows returned) as a ring of `slots`
 * sub-window slots of `slotMs` each. A slot belongs to one slot number
 * (`floor(nowMs / slotMs)`); slots whose number fell out of the last `slots`
 * are ignored and reused, so memory is fixed and old reads expire without a
 * timer. The window is `slots × slotMs` at slot granularity: a read counts for
 * between `(slots - 1) × slotMs` and `slots × slotMs` after it happened.
 */
export interface WindowTotals {
  readonly bytes: number;
  readonly rows: number;
  readonly returned: number;
}

export interface SlidingWindowTally {
  /** Adds a sample at `nowMs` and returns the totals of the window ending at `nowMs`. */
  add(nowMs: number, bytes: number, rows: number, returned: number): WindowTotals;
}

export function createSlidingWindowTally(slots: number, slotMs: number): SlidingWindowTally {
  const slotNumber = new Float64Array(slots).fill(-Infinity);
  const bytes = new Float64Array(slots);
  const rows = new Float64Array(slots);
  const returned = new Float64Array(slots);
  return {
    add(nowMs, b, r, ret) {
      const current = Math.floor(nowMs / slotMs);
      const at = ((current % slots) + slots) % slots;
      if (slotNumber[at] !== current) {
        slotNumber[at] = current;
        bytes[at] = 0;
        rows[at] = 0;
        returned[at] = 0;
      }
      bytes[at] = bytes[at]! + b;
      rows[at] = rows[at]! + r;
      returned[at] = returned[at]! + ret;
      let sumBytes = 0;
      let sumRows = 0;
      let sumReturned = 0;
      for (let i = 0; i < slots; i++) {
        // A clock that steps back leaves slots "in the future": they count until reused.
        if (slotNumber[i]! <= current - slots) continue;
        sumBytes += bytes[i]!;
        sumRows += rows[i]!;
        sumReturned += returned[i]!;
      }
      return { bytes: sumBytes, rows: sumRows, returned: sumReturned };
    },
  };
}
