import type { EventProcessor } from '../../../processors/index.ts';
import type { ChunkPipelining } from './runChunksPipelined.ts';
import type { ConsumedRecord } from './pipelineTypes.ts';
import { readKey } from './readStage.ts';

/**
 * A decode that remembers its answer per record value for as long as the
 * record is held (a WeakMap on the Buffer): the pipelining decodes a chunk
 * to find its cells before the chunk runs, and the run decodes it again.
 */
export function memoizedDecode<E>(decode: (value: Buffer) => Promise<E>): (value: Buffer) => Promise<E> {
  const decoded = new WeakMap<Buffer, Promise<E>>();
  return (value) => {
    let event = decoded.get(value);
    if (event === undefined) decoded.set(value, (event = decode(value)));
    return event;
  };
}

/**
 * The conflict keys of a chunk for `ChunkPipelining`: the cells its events
 * read `exclusive`ly (the fan-out: each link op's current link). A record
 * that does not decode, or whose reads throw, has none: the run dead-letters it.
 */
export function exclusiveCellKeys<E>(processor: EventProcessor<E>, decode: (value: Buffer) => Promise<E>): ChunkPipelining['conflictKeys'] {
  return async (_source, messages: readonly ConsumedRecord[]) => {
    const keys = new Set<string>();
    const events = await Promise.all(messages.map((m) => (m.value === null ? undefined : decode(m.value).catch(() => undefined))));
    for (const event of events) {
      if (event === undefined) continue;
      try {
        for (const r of processor.reads(event)) if (r.exclusive === true) keys.add(readKey(r));
      } catch {
        // the run dead-letters it as processor_error
      }
    }
    return keys;
  };
}
