import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { EdgeReader } from '../reads/index.ts';
import { defaultEdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { EdgeProducer } from '../streams/producer/index.ts';
import type { ConsistencyGate } from './consistency/createConsistencyGate.ts';
import { createEdgeServer } from './createEdgeServer.ts';

// Its own file: Node emits each framework warning once per process, so a server built earlier in the same file would hide it.
describe('createEdgeServer', () => {
  it('starts without a framework deprecation warning (a new user sees none on npm start)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const gate: ConsistencyGate = { waitFor: async () => ({ kind: 'visible' }), waiting: 0, close: () => {} };
    const server = await createEdgeServer({ reader: {} as EdgeReader, producer: {} as EdgeProducer, gate, readiness: [], edgeTypes: ['follows'], limits: defaultEdgestreamConfig().server, logger: pino({ level: 'silent' }) });
    try {
      await new Promise((resolve) => setImmediate(resolve)); // process warnings are emitted on the next tick
      expect(warnings.filter((w) => /deprecat|FSTDEP/i.test(w))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await server.close();
    }
  });
});
