import { classifyFailure } from '../failures/classifyFailure.ts';
import { isReplayForced } from '../failures/headers.ts';
import { eventLogFields } from './logFields.ts';
import { describeError, PipelineError } from '../failures/PipelineError.ts';
import type { ChunkSource, PipelineDeps, Slot } from './pipelineTypes.ts';

/**
 * Decodes every record of the chunk and validates the events. Bad records get
 * a dead-letter outcome; a registry outage (retriable DecodeError) throws
 * BATCH_RETRY, because the bytes may be fine and nothing may be dead-lettered
 * for it.
 */
export async function decodeStage<E>(deps: PipelineDeps<E>, source: ChunkSource, slots: Slot<E>[]): Promise<void> {
  const decoded = await Promise.allSettled(
    slots.map(async (slot) => {
      if (slot.message.value === null) throw new NullValue();
      return deps.decode(slot.message.value);
    }),
  );
  let retryBatch: unknown;
  decoded.forEach((result, i) => {
    const slot = slots[i] as Slot<E>;
    if (result.status === 'fulfilled') {
      slot.event = result.value;
      return;
    }
    const e = result.reason;
    if (e instanceof NullValue) {
      deadLetter(deps, source, slot, 'record has no value (a tombstone record on an event topic)');
      return;
    }
    switch (classifyFailure('decode', e)) {
      case 'dead-letter':
        deadLetter(deps, source, slot, describeError(e));
        return;
      case 'retry-batch':
        retryBatch ??= e;
        return;
      default:
        throw new PipelineError('FATAL', `decoding failed unexpectedly: ${describeError(e)}`, { cause: e });
    }
  });
  if (retryBatch !== undefined) {
    throw new PipelineError('BATCH_RETRY', `schema registry unavailable: ${describeError(retryBatch)}`, { cause: retryBatch });
  }

  const now = deps.clock.nowMicros();
  for (const slot of slots) {
    if (slot.outcome !== undefined || slot.event === undefined) continue;
    let verdict;
    try {
      verdict = deps.validate(slot.event, { wallClockMicros: now, repair: deps.repairRunner === true, replayForced: isReplayForced(slot.message.headers) });
    } catch (e) {
      throw new PipelineError('FATAL', `the validator threw (a bug): ${describeError(e)}`, { cause: e });
    }
    if (verdict.ok) {
      slot.event = verdict.event;
      continue;
    }
    slot.outcome = { kind: 'dead-letter', reason: 'invalid', field: verdict.field, error: verdict.reason };
    deps.logger.warn({ ...eventLogFields(source, slot, deps), field: verdict.field, reason: verdict.reason }, 'invalid event dead-lettered');
  }
}

function deadLetter<E>(deps: PipelineDeps<E>, source: ChunkSource, slot: Slot<E>, error: string): void {
  slot.outcome = { kind: 'dead-letter', reason: 'undecodable', error };
  deps.logger.warn({ ...eventLogFields(source, slot), error }, 'undecodable record dead-lettered');
}

class NullValue extends Error {}
