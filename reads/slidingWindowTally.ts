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

/**
 * One per partition the server has read lately (createReadCounters keeps
 * 10 000 and replaces them as reads move on, hundreds a second under a mixed
 * load), so each is one object and one array of plain numbers: four typed
 * arrays each were four ArrayBuffers with memory outside the heap, and those
 * made up most of what the server's scavenges copied and promoted (a heap
 * snapshot diff at 400 requests/s, README "bench:mixed").
 */
class RingTally implements SlidingWindowTally {
  /** Per slot: slot number, bytes, rows, rows returned. */
  private readonly cells: number[];
  private readonly slots: number;
  private readonly slotMs: number;
  constructor(slots: number, slotMs: number) {
    this.slots = slots;
    this.slotMs = slotMs;
    this.cells = new Array<number>(slots * 4).fill(0);
    for (let i = 0; i < slots; i++) this.cells[i * 4] = -Infinity;
  }

  add(nowMs: number, b: number, r: number, ret: number): WindowTotals {
    const { cells, slots } = this;
    const current = Math.floor(nowMs / this.slotMs);
    const at = (((current % slots) + slots) % slots) * 4;
    if (cells[at] !== current) {
      cells[at] = current;
      cells[at + 1] = 0;
      cells[at + 2] = 0;
      cells[at + 3] = 0;
    }
    cells[at + 1] = cells[at + 1]! + b;
    cells[at + 2] = cells[at + 2]! + r;
    cells[at + 3] = cells[at + 3]! + ret;
    let bytes = 0;
    let rows = 0;
    let returned = 0;
    for (let i = 0; i < slots * 4; i += 4) {
      // A clock that steps back leaves slots "in the future": they count until reused.
      if (cells[i]! <= current - slots) continue;
      bytes += cells[i + 1]!;
      rows += cells[i + 2]!;
      returned += cells[i + 3]!;
    }
    return { bytes, rows, returned };
  }
}

export function createSlidingWindowTally(slots: number, slotMs: number): SlidingWindowTally {
  return new RingTally(slots, slotMs);
}
