import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { knownSchemas, type KnownSchema } from '../../schemas/index.ts';
import { topicName } from './topicName.ts';

/**
 * The value schema of every topic that carries Avro, by real topic name: what
 * `init` registers (subject `<topic>-value`) before any stage starts. Repair
 * and DLQ topics carry their input's bytes unchanged, so they need no subject.
 */
export function topicSchemas(config: EdgestreamConfig): Record<string, KnownSchema<unknown>> {
  const name = (logical: Parameters<typeof topicName>[1]) => topicName(config.topics.prefix, logical);
  return {
    [name('edge-mutations')]: knownSchemas.EdgeMutation,
    [name('wide-partitions')]: knownSchemas.WidePartitionDetected,
    [name('split-plans')]: knownSchemas.SplitTask,
    [name('split-results')]: knownSchemas.SplitTask,
  };
}
