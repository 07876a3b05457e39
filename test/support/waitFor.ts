import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` every `pollMs` until it holds; past `timeoutMs` throws naming `what` and whatever `onTimeout` adds (a log tail). */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, onTimeout: () => string = () => '', pollMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} ${onTimeout()}`.trimEnd());
    await sleep(pollMs);
  }
}
