// GENERATED from schemas/avro/SplitTask.v1.avsc by `npm run codegen`. Do not edit.
// Avro long is bigint here (see schemas/runtime/bigintLongType.ts).

/** One step of the plan → split → verify chain for a wide partition: on 'split-plans' the plan is recorded and the splitter copies; on 'split-results' the copy is done and the verifier checks it. The wide_rows record is the state; this event only says which record to look at. */
export interface SplitTask {
  /** The namespace (table) of the wide partition, e.g. 'follows_in'. */
  readonly namespace: string;
  /** The partition key of the wide partition. */
  readonly partition_id: string;
  /** The split attempt the step belongs to; a step of an older generation is ignored. */
  readonly generation: number;
  /**
   * When the previous stage finished, microseconds since the epoch.
   * Avro logicalType timestamp-micros, not interpreted: the raw value.
   */
  readonly requested_at: bigint;
}

/** The parsed Avro schema of SplitTask (schemas/avro/SplitTask.v1.avsc). */
export const SplitTaskAvsc = {
  "type": "record",
  "name": "SplitTask",
  "namespace": "io.edgestream",
  "doc": "One step of the plan → split → verify chain for a wide partition: on 'split-plans' the plan is recorded and the splitter copies; on 'split-results' the copy is done and the verifier checks it. The wide_rows record is the state; this event only says which record to look at.",
  "fields": [
    {
      "name": "namespace",
      "type": "string",
      "doc": "The namespace (table) of the wide partition, e.g. 'follows_in'."
    },
    {
      "name": "partition_id",
      "type": "string",
      "doc": "The partition key of the wide partition."
    },
    {
      "name": "generation",
      "type": "int",
      "doc": "The split attempt the step belongs to; a step of an older generation is ignored."
    },
    {
      "name": "requested_at",
      "type": {
        "type": "long",
        "logicalType": "timestamp-micros"
      },
      "doc": "When the previous stage finished, microseconds since the epoch."
    }
  ]
} as const;

/** The version of SplitTaskAvsc, from its file name. */
export const SplitTaskAvscVersion = 1;
