import type { ConsumedRecord } from '../../kafka/index.ts';
import { describe, expect, it } from 'vitest';
import { decodeStage } from './decodeStage.ts';
import { HEADERS } from '../failures/headers.ts';
import { defaultMutationIdOf } from './logFields.ts';
import type { PipelineDeps, Slot, ValidationContext } from './pipelineTypes.ts';
import { createTestClock } from '../testing/testClock.ts';
import { silentLogger } from '../testing/silentLogger.ts';

interface Ev {
  readonly mutation_id: string;
}

/** Runs decodeStage over records with the given headers, recording what the validator was told. */
async function contexts(records: { id: string; headers?: ConsumedRecord['headers'] }[], repairRunner?: boolean): Promise<Record<string, ValidationContext>> {
  const seen: Record<string, ValidationContext> = {};
  const deps = {
    decode: async (value: Buffer) => ({ mutation_id: value.toString() }),
    validate: (event: Ev, at: ValidationContext) => {
      seen[event.mutation_id] = at;
      return { ok: true, event };
    },
    clock: createTestClock({ startMs: 1_000 }),
    logger: silentLogger,
    mutationIdOf: defaultMutationIdOf,
    ...(repairRunner === undefined ? {} : { repairRunner }),
  } as unknown as PipelineDeps<Ev>;
  const slots: Slot<Ev>[] = records.map((r, i) => ({ message: { offset: String(i), key: null, value: Buffer.from(r.id), headers: r.headers ?? {} } as ConsumedRecord }));
  await decodeStage(deps, { topic: 't', partition: 0 }, slots);
  return seen;
}

describe('decodeStage: what the validator is told about a record', () => {
  it('the wall clock, whether the repair runner re-runs it, and whether replay --force marked it', async () => {
    const records = [{ id: 'plain' }, { id: 'forced', headers: { [HEADERS.replayForced]: Buffer.from('1') } }, { id: 'other-value', headers: { [HEADERS.replayForced]: Buffer.from('yes') } }];
    expect(await contexts(records)).toEqual({
      plain: { wallClockMicros: 1_000_000n, repair: false, replayForced: false },
      forced: { wallClockMicros: 1_000_000n, repair: false, replayForced: true },
      'other-value': { wallClockMicros: 1_000_000n, repair: false, replayForced: false },
    });
    expect(await contexts(records, true)).toMatchObject({ plain: { repair: true, replayForced: false }, forced: { repair: true, replayForced: true } });
  });
});
