import { describe, expect, it } from 'vitest';
import { stopOnSignals } from './stopOnSignals.ts';
import { silentLogger } from '../testing/silentLogger.ts';

describe('stopOnSignals', () => {
  it('stops every runner once on the first SIGTERM, then reports and removes its listeners', async () => {
    const stopped: string[] = [];
    const runner = (name: string) => ({ stop: async () => void stopped.push(name) });
    const listenersBefore = process.listenerCount('SIGTERM');
    const sigintBefore = process.listenerCount('SIGINT');
    const done = new Promise<unknown>((resolve) => stopOnSignals([runner('fan-out'), runner('repair')], { logger: silentLogger, onStopped: resolve }));
    expect(process.listenerCount('SIGTERM')).toBe(listenersBefore + 1);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await done).toBeUndefined();
    expect(stopped).toEqual(['fan-out', 'repair']);
    expect(process.listenerCount('SIGTERM')).toBe(listenersBefore);
    expect(process.listenerCount('SIGINT')).toBe(sigintBefore); // removed together
  });

  it('hands a failed stop to onStopped', async () => {
    const failure = new Error('leave failed');
    const done = new Promise<unknown>((resolve) => stopOnSignals([{ stop: () => Promise.reject(failure) }], { logger: silentLogger, onStopped: resolve, signals: ['SIGINT'] }));
    process.emit('SIGINT', 'SIGINT');
    expect(await done).toBe(failure);
  });
});
