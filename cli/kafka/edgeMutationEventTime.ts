import { knownSchemas } from '../../schemas/index.ts';
import type { AvroSerde } from '../../streams/serde/index.ts';

/**
 * The event_time of an EdgeMutation record, or undefined when its bytes cannot be
 * decoded (the fan-out would dead-letter it again; it writes nothing). A registry
 * outage (a retriable DecodeError) is rethrown: nothing can be said about the record.
 */
export function edgeMutationEventTime(serde: AvroSerde): (value: Buffer) => Promise<bigint | undefined> {
  return async (value) => {
    try {
      return (await serde.decode(value, knownSchemas.EdgeMutation)).value.event_time;
    } catch (e) {
      if ((e as { retriable?: unknown }).retriable === false) return undefined;
      throw e;
    }
  };
}
