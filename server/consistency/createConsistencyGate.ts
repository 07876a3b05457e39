import type { Logger } from 'pino';
import type { ConsistencyToken } from './consistencyToken.ts';
import { judgeToken, type OffsetSnapshot, type TokenVerdict } from './judgeToken.ts';

/** What a read that carries a token is told: go ahead, refuse (409) or come back later (503). */
export type GateVerdict = TokenVerdict | { readonly kind: 'timeout'; readonly reason: string } | { readonly kind: 'overloaded'; readonly reason: string };

export interface ConsistencyGate {
  /** Resolves once the token's record is visible, is known not to exist, or `timeoutMs` passed. Never rejects. */
  waitFor(token: ConsistencyToken, timeoutMs: number): Promise<GateVerdict>;
  /** Waiters still pending. */
  readonly waiting: number;
  /** Resolves every pending wait as timed out and stops polling. */
  close(): void;
}

export interface ConsistencyGateOptions {
  /** Reads one snapshot (fetchOffsetSnapshot). */
  readonly fetch: () => Promise<OffsetSnapshot>;
  readonly pollIntervalMs: number;
  /** Most waits pending at once; one more is answered `overloaded` at once (a flood of forged tokens holds no more). */
  readonly maxWaiters?: number;
  readonly logger: Logger;
}

interface Waiter {
  readonly token: ConsistencyToken;
  /** The first read that began after this wait did: only it or a later one may call the token unknown. */
  readonly firstFreshRead: number;
  readonly settle: (v: GateVerdict) => void;
  lastReason: string;
}

/**
 * One poller for all waiting reads: while any read waits, it reads an offset
 * snapshot every `pollIntervalMs` and settles the waits it decides; with none
 * waiting it makes no calls. The latest snapshot is kept: a token it already
 * shows visible is answered at once (visibility never turns back). A read
 * that began before a wait did may show it visible, never unknown: its token
 * may name a record appended after that read. However many wait (at most
 * `maxWaiters`), the poller makes one snapshot read per interval.
 */
export function createConsistencyGate(opts: ConsistencyGateOptions): ConsistencyGate {
  const waiters = new Set<Waiter>();
  let latest: OffsetSnapshot | undefined;
  let polling = false;
  let closed = false;
  let readsStarted = 0;

  const settle = (w: Waiter, v: GateVerdict): void => {
    if (waiters.delete(w)) w.settle(v);
  };
  const poll = async (): Promise<void> => {
    if (polling) return;
    polling = true;
    try {
      while (waiters.size > 0 && !closed) {
        try {
          const read = ++readsStarted;
          latest = await opts.fetch();
          for (const w of waiters) {
            const v = judgeToken(w.token, latest);
            if (v.kind === 'visible' || (v.kind === 'unknown' && read >= w.firstFreshRead)) settle(w, v);
            else if (v.kind === 'pending') w.lastReason = v.reason;
          }
        } catch (err) {
          opts.logger.warn({ err }, 'reading committed offsets failed; retrying');
          for (const w of waiters) w.lastReason = `committed offsets could not be read: ${err instanceof Error ? err.message : String(err)}`;
        }
        if (waiters.size > 0) await new Promise((r) => setTimeout(r, opts.pollIntervalMs));
      }
    } finally {
      polling = false;
    }
  };

  return {
    get waiting() {
      return waiters.size;
    },
    waitFor(token, timeoutMs) {
      if (latest && judgeToken(token, latest).kind === 'visible') return Promise.resolve({ kind: 'visible' });
      if (closed) return Promise.resolve({ kind: 'timeout', reason: 'the server is shutting down' });
      if (waiters.size >= (opts.maxWaiters ?? Infinity)) return Promise.resolve({ kind: 'overloaded', reason: `${waiters.size} reads are already waiting for their tokens` });
      return new Promise<GateVerdict>((resolve) => {
        const timer = setTimeout(() => settle(w, { kind: 'timeout', reason: w.lastReason }), timeoutMs);
        const w: Waiter = {
          token,
          firstFreshRead: readsStarted + 1,
          lastReason: 'no committed offsets read yet',
          settle: (v) => {
            clearTimeout(timer);
            resolve(v);
          },
        };
        waiters.add(w);
        void poll();
      });
    },
    close() {
      closed = true;
      for (const w of [...waiters]) settle(w, { kind: 'timeout', reason: 'the server is shutting down' });
    },
  };
}
