import type { MixOp } from './opMix.ts';

/** One link as an answer shows it, comparable across systems (data as base64, '' when none). */
export interface LinkRow {
  readonly dst: string;
  readonly time: bigint;
  readonly data: string;
}

/** A link read back by a point read: its row and whether pages and counts see it. */
export interface PointLink extends LinkRow {
  readonly visible: boolean;
}

/** A system the mix runs against: the ops, and the answers the bench compares before the phase. */
export interface MixTarget {
  execute(op: MixOp): Promise<void>;
  /** The newest `limit` out-links of src. */
  page(src: string, limit: number): Promise<LinkRow[]>;
  /** The links src → dsts that exist (in any state). */
  links(src: string, dsts: readonly string[]): Promise<PointLink[]>;
  /** Out-degree of src (ACTIVE links). */
  count(src: string): Promise<bigint>;
}

export const base64 = (data: Uint8Array | undefined): string => (data === undefined ? '' : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64'));

/** The client's clock for ADD/UPDATE edge times, µs (LinkBench sets `time` to the requester's now). */
export const nowMicros = (): bigint => BigInt(Date.now()) * 1_000n;
