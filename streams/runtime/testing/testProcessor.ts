import { clearPartition, type EventProcessor } from '../../../processors/index.ts';
import { DecodeError } from '../../serde/index.ts';
import type { ValidateEvent } from '../stages/pipelineTypes.ts';

/**
 * A small processor for runtime tests (the real fan-out lives in
 * processors/fanout): `src → dst` at `time` writes `t_out[src][dst]` and
 * `t_in[dst][src]` (value = the event id), reads `t_out[src][dst]` first,
 * marks `t_dirty[src]` as a follow-up, and emits to `edge-mutations` when
 * `emit` is set. `op: 'throw'` makes `process` throw; `op: 'clear'` clears
 * `t_in[dst]` at `time` (a ClearingMutation) and writes nothing else.
 */
export interface TestEvent {
  readonly mutation_id: string;
  readonly op: 'link' | 'throw' | 'clear';
  readonly src: string;
  readonly dst: string;
  readonly time: string;
  readonly emit?: boolean;
}

export const TEST_NAMESPACES = [
  { name: 't_out', chunking: false },
  { name: 't_in', chunking: false },
  { name: 't_dirty', chunking: false },
];

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/**
 * `exclusive`: its read of `t_out[src][dst]` is exclusive (later events of that cell wait for a round);
 * `finalIn`: the `t_in` write is a later wave; `routed`: its routing key is `src`. `seen.soleWriter`
 * records each processed event's ProcessContext.soleWriter.
 */
export interface TestProcessorOptions {
  readonly exclusive?: boolean;
  readonly finalIn?: boolean;
  readonly routed?: boolean;
}

export function createTestProcessor(seen: { reads: (string | undefined)[]; soleWriter?: boolean[] } = { reads: [] }, options: TestProcessorOptions = {}): EventProcessor<TestEvent> {
  return {
    name: 'test-processor',
    reads: (e) => [{ namespace: 't_out', id: e.src, key: utf8(e.dst), ...(options.exclusive === true ? { exclusive: true } : {}) }],
    ...(options.routed === true ? { routingKey: (e: TestEvent) => e.src } : {}),
    process(e, reads, ctx) {
      seen.soleWriter?.push(ctx.soleWriter === true);
      if (e.op === 'throw') throw new Error(`poison ${e.mutation_id}`);
      if (e.op === 'clear') return { writes: [clearPartition('t_in', e.dst, BigInt(e.time))], followUps: [], emits: [] };
      const before = reads.get({ namespace: 't_out', id: e.src, key: utf8(e.dst) });
      seen.reads.push(before === undefined ? undefined : new TextDecoder().decode(before.value));
      const writeTime = BigInt(e.time);
      const out = { namespace: 't_out', id: e.src, writeTime, deletions: [], additions: [{ key: utf8(e.dst), value: utf8(e.mutation_id) }] };
      const into = { namespace: 't_in', id: e.dst, writeTime, deletions: [], additions: [{ key: utf8(e.src), value: utf8(e.mutation_id) }] };
      return {
        writes: options.finalIn === true ? [out] : [out, into],
        ...(options.finalIn === true ? { laterWaves: [[into]] } : {}),
        followUps: [{ namespace: 't_dirty', id: 'shard-0', deletions: [], additions: [{ key: utf8(e.src), value: new Uint8Array(0) }] }],
        emits: e.emit ? [{ topic: 'edge-mutations', key: e.src, value: { echo: e.mutation_id, at: String(ctx.wallClockMicros) } }] : [],
      };
    },
  };
}

/** JSON bytes → TestEvent; anything else is a non-retriable DecodeError (like a bad magic byte). */
export async function decodeTestEvent(value: Buffer): Promise<TestEvent> {
  if (value.toString() === 'REGISTRY_DOWN') throw new DecodeError('REGISTRY_UNAVAILABLE', 'registry down');
  try {
    return JSON.parse(value.toString()) as TestEvent;
  } catch (e) {
    throw new DecodeError('BAD_MAGIC_BYTE', 'not a test event', { cause: e });
  }
}

/** Rejects events with an empty src, naming the field. */
export const validateTestEvent: ValidateEvent<TestEvent> = (event) =>
  event.src === '' ? { ok: false, field: 'src', reason: 'must not be empty' } : { ok: true, event };

export function testEventBytes(e: Partial<TestEvent> & { mutation_id: string }): Buffer {
  return Buffer.from(JSON.stringify({ op: 'link', src: 'a', dst: 'b', time: '10', ...e }));
}
