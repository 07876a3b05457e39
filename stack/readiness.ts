import fs from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves true when something accepts TCP connections on host:port. */
export function portOpen(port: number, host = '127.0.0.1', timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Polls `probe` until it resolves true, `alive()` turns false (the process died: fail
 * at once instead of waiting out the timeout), or `timeoutMs` passes.
 */
export async function waitUntil(
  probe: () => Promise<boolean>,
  opts: { timeoutMs: number; intervalMs?: number; alive?: () => boolean },
): Promise<'ready' | 'died' | 'timeout'> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (opts.alive && !opts.alive()) return 'died';
    if (await probe().catch(() => false)) return 'ready';
    if (Date.now() > deadline) return 'timeout';
    await sleep(opts.intervalMs ?? 500);
  }
}

/** The last `lines` lines of a log file, for error messages. */
export function tailFile(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log written)';
  }
}
