import { createBoundedTtlCache } from '../sinks/caches/createBoundedTtlCache.ts';

/**
 * What a newest page at a given position had to validate last time, so the
 * next read of the same position can start its multi-key validation read
 * together with the index slice instead of after it (docs/architecture.md §6,
 * "Neighbour pages"). A guess only chooses which link cells are read early;
 * every cell a page uses is read by that call, so a wrong or old guess costs
 * rows or a round trip, never a wrong page.
 */
export interface ValidationGuesses {
  /** Most peers a kept guess holds: a bigger page is never guessed at, so its read need not name its peers. */
  readonly maxPeers: number;
  /** What the last read at `position` found, if still kept: read its peers early only when `stable`. */
  get(position: string): Seen | undefined;
  /**
   * What the slice at `position` held (its peers, and whether every entry was
   * live), after `last` (what `get` returned). A position is guessed at only
   * once two reads in a row found the same peers there (or one found a
   * subset of the other's: a read that asked for fewer cells), so a page that
   * keeps changing (a vertex gaining followers every moment) costs no wasted
   * early reads. Pages of more than `maxPeers` peers are not kept: a scan
   * reads each page once.
   */
  remember(position: string, peers: readonly string[], allLive: boolean, last: Seen | undefined): void;
}

export interface Seen {
  /** The peers of the slice, distinct, each as its link key's bytes in Latin-1 (`bytesKey`). */
  readonly peers: readonly string[];
  /** Every entry of the slice was live. */
  readonly allLive: boolean;
  /** The read before this one found the same peers (or one set held the other). */
  readonly stable: boolean;
}

export interface ValidationGuessesOptions {
  /** Positions kept (least recently used goes first); 0 turns guessing off. */
  readonly maxEntries: number;
  /** How long a guess is used; 0 turns guessing off. */
  readonly ttlMs: number;
  /** Most peers a kept guess may hold. */
  readonly maxPeers: number;
  readonly nowMs: () => number;
}

/** The position of a page: its logical partition, the keys bounding its slice and how many live neighbours it wants. */
export function guessPosition(namespace: string, vertex: string, after: Uint8Array | undefined, before: Uint8Array | undefined, wanted: number): string {
  const hex = (k: Uint8Array | undefined) => (k === undefined ? '' : Buffer.from(k.buffer, k.byteOffset, k.byteLength).toString('hex'));
  return `${namespace}\u0000${vertex}\u0000${hex(after)}\u0000${hex(before)}\u0000${wanted}`;
}

export function createValidationGuesses(opts: ValidationGuessesOptions): ValidationGuesses {
  const cache = createBoundedTtlCache<Seen>(opts);
  return {
    maxPeers: opts.maxPeers,
    get: (position) => cache.get(position)?.value,
    remember(position, peers, allLive, last) {
      if (peers.length === 0 || peers.length > opts.maxPeers) return cache.delete(position);
      cache.set(position, { peers, allLive, stable: last !== undefined && nested(last.peers, peers) });
    },
  };
}

/** One set holds the other: the same page, read with fewer or more cells. */
function nested(a: readonly string[], b: readonly string[]): boolean {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const set = new Set(large);
  return small.every((x) => set.has(x));
}
