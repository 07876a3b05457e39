/**
 * Calls `check` until it holds or `deadline` (a performance.now() time) has
 * passed; between calls it waits max(minIntervalMs, 10% of the time since
 * `since`), at most 200 ms, so the resolution is 10% of the wait (never
 * coarser than 200 ms) and a slow wait costs few calls. Resolves with when the
 * check held (performance.now()), or undefined at the deadline.
 */
export async function pollUntil(check: () => Promise<boolean>, o: { readonly since: number; readonly deadline: number; readonly minIntervalMs: number }): Promise<number | undefined> {
  for (;;) {
    const held = await check();
    const now = performance.now();
    if (held) return now;
    if (now > o.deadline) return undefined;
    await new Promise((r) => setTimeout(r, Math.min(200, Math.max(o.minIntervalMs, (now - o.since) / 10))));
  }
}
