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
  /** What the last read at `position` found, if still kept: read its peers early only when `stable`. */
  get(position: string): Seen | undefined;
  /**
   * What the slice at `position` held, after `last` (what `get` returned). A
   * position is guessed at only once two reads in a row found the same peers
   * there, so a page that keeps changing (a vertex gaining followers every
   * moment) costs no wasted early reads. Pages of more than `maxPeers` peers are
   * not kept: a scan reads each page once.
   */
  remember(position: string, peers: readonly string[], last: Seen | undefined): void;
}

export interface Seen {
  readonly peers: readonly string[];
  /** The read before this one found the same peers. */
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

/** The position of a page: its logical partition, the keys bounding its slice and how many cells it asks for. */
export function guessPosition(namespace: string, vertex: string, after: Uint8Array | undefined, before: Uint8Array | undefined, cells: number): string {
  const hex = (k: Uint8Array | undefined) => (k === undefined ? '' : Buffer.from(k.buffer, k.byteOffset, k.byteLength).toString('hex'));
  return `${namespace}\u0000${vertex}\u0000${hex(after)}\u0000${hex(before)}\u0000${cells}`;
}

export function createValidationGuesses(opts: ValidationGuessesOptions): ValidationGuesses {
  const cache = createBoundedTtlCache<Seen>(opts);
  return {
    get: (position) => cache.get(position)?.value,
    remember(position, peers, last) {
      if (peers.length === 0 || peers.length > opts.maxPeers) return cache.delete(position);
      cache.set(position, { peers, stable: last !== undefined && sameSet(last.peers, peers) });
    },
  };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((x) => set.has(x));
}
