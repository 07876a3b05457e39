import { EdgeMutationAvsc, EdgeMutationAvscVersion, type EdgeMutation } from './generated/EdgeMutation.ts';
import {
  WidePartitionDetectedAvsc,
  WidePartitionDetectedAvscVersion,
  type WidePartitionDetected,
} from './generated/WidePartitionDetected.ts';
import { SplitTaskAvsc, SplitTaskAvscVersion, type SplitTask } from './generated/SplitTask.ts';
import { knownSchema } from './knownSchema.ts';

/**
 * Every schema edgestream reads or writes, by record name. Values register
 * under `<topic>-value` (TopicNameStrategy). A unit test fails when an .avsc
 * in schemas/avro has no entry here, or the entry's version is not the newest.
 */
export const knownSchemas = {
  EdgeMutation: knownSchema<EdgeMutation>({
    avsc: EdgeMutationAvsc,
    version: EdgeMutationAvscVersion,
    subjectSuffix: 'value',
  }),
  WidePartitionDetected: knownSchema<WidePartitionDetected>({
    avsc: WidePartitionDetectedAvsc,
    version: WidePartitionDetectedAvscVersion,
    subjectSuffix: 'value',
  }),
  SplitTask: knownSchema<SplitTask>({
    avsc: SplitTaskAvsc,
    version: SplitTaskAvscVersion,
    subjectSuffix: 'value',
  }),
} as const;
