import { createHash } from 'node:crypto';
import type { Cell } from '../../sinks/store/index.ts';

/**
 * The split checksum: SHA-256 chained over blocks of CHECKSUM_BLOCK_ROWS cells
 * in canonical order (ascending key; each cell encoded as
 * u32 len ‖ key ‖ u32 len ‖ value ‖ u64 write time):
 *
 *   h0 = 32 zero bytes, h(i+1) = SHA-256(h(i) ‖ block i), digest = SHA-256(h(last) ‖ partial block ‖ u64 rows)
 *
 * Chaining per block instead of one running hash makes the state at a block
 * boundary 32 bytes plus a row count, which a checkpoint can store (Node's
 * hash objects cannot be serialized), so a planner killed mid-scan resumes
 * with the same digest it would have produced in one go. Any change of a key,
 * a value, a write time, the order or the row count changes the digest.
 */
export const CHECKSUM_BLOCK_ROWS = 1024;

export interface ChecksumState {
  /** h(i), hex. */
  readonly chain: string;
  /** Cells folded so far; a multiple of CHECKSUM_BLOCK_ROWS at a checkpoint. */
  readonly rows: number;
}

export const EMPTY_CHECKSUM: ChecksumState = Object.freeze({ chain: '00'.repeat(32), rows: 0 });

export class ChainChecksum {
  private chain: Buffer;
  private rows: number;
  private pending: Buffer[] = [];
  private pendingRows = 0;

  constructor(from: ChecksumState = EMPTY_CHECKSUM) {
    if (from.rows % CHECKSUM_BLOCK_ROWS !== 0) throw new Error(`checksum state must sit on a block boundary, got ${from.rows} rows`);
    this.chain = Buffer.from(from.chain, 'hex');
    this.rows = from.rows;
  }

  add(cell: Cell): void {
    this.pending.push(encodeCanonicalCell(cell));
    this.pendingRows++;
    this.rows++;
    if (this.pendingRows === CHECKSUM_BLOCK_ROWS) {
      this.chain = createHash('sha256').update(this.chain).update(Buffer.concat(this.pending)).digest();
      this.pending = [];
      this.pendingRows = 0;
    }
  }

  /** The resumable state, or undefined between block boundaries. */
  state(): ChecksumState | undefined {
    return this.pendingRows === 0 ? { chain: this.chain.toString('hex'), rows: this.rows } : undefined;
  }

  get count(): number {
    return this.rows;
  }

  digest(): string {
    const rows = Buffer.alloc(8);
    rows.writeBigUInt64BE(BigInt(this.rows));
    return createHash('sha256').update(this.chain).update(Buffer.concat(this.pending)).update(rows).digest('hex');
  }
}

export function encodeCanonicalCell(cell: Cell): Buffer {
  const out = Buffer.allocUnsafe(4 + cell.key.length + 4 + cell.value.length + 8);
  let at = out.writeUInt32BE(cell.key.length, 0);
  out.set(cell.key, at);
  at = out.writeUInt32BE(cell.value.length, at + cell.key.length);
  out.set(cell.value, at);
  out.writeBigUInt64BE(cell.writeTime, at + cell.value.length);
  return out;
}

/** Bytes a cell occupies in the planner's size estimate (key + value). */
export const cellBytes = (cell: Cell): number => cell.key.length + cell.value.length;
