import type { Emit, LogicalTopic } from '../../../processors/index.ts';
import { knownSchemas, type KnownSchema } from '../../../schemas/index.ts';
import { subjectFor, type AvroSerde } from '../../serde/index.ts';
import { topicName } from '../../topics/index.ts';
import { PipelineError } from '../failures/PipelineError.ts';
import type { OutRecord } from './pipelineTypes.ts';

/** The value schema of each logical topic a processor may emit to. */
export type EmitSchemas = Partial<Record<LogicalTopic, KnownSchema<unknown>>>;

export const DEFAULT_EMIT_SCHEMAS: EmitSchemas = Object.freeze({
  'edge-mutations': knownSchemas.EdgeMutation,
  'wide-partitions': knownSchemas.WidePartitionDetected,
  'split-plans': knownSchemas.SplitTask,
  'split-results': knownSchemas.SplitTask,
});

/**
 * Encodes an emit with its topic's registered schema (TopicNameStrategy
 * subject `<topic>-value`, which must be registered before the runtime
 * starts). A topic without a schema is a wiring bug: FATAL.
 */
export function createEmitEncoder({ serde, prefix, schemas = DEFAULT_EMIT_SCHEMAS }: { serde: AvroSerde; prefix: string; schemas?: EmitSchemas }) {
  return async (emit: Emit): Promise<OutRecord> => {
    const schema = schemas[emit.topic];
    if (schema === undefined) throw new PipelineError('FATAL', `no schema is configured for emits to logical topic '${emit.topic}'`);
    const topic = topicName(prefix, emit.topic);
    return { topic, key: emit.key, value: await serde.encode(subjectFor(topic, schema), emit.value) };
  };
}
