// GENERATED from schemas/avro/WidePartitionDetected.v1.avsc by `npm run codegen`. Do not edit.
// Avro long is bigint here (see schemas/runtime/bigintLongType.ts).

/** A read observed a partition crossing the width threshold within a window. Emitted at most once per partition per cool-down; input to the split planner. */
export interface WidePartitionDetected {
  /** The storage namespace (table) the partition belongs to, e.g. 'links_out_follows'. */
  readonly namespace: string;
  /** The partition key (the two-level map's outer id) that read wide. */
  readonly partition_id: string;
  /** Bytes pulled from the partition within the window. */
  readonly bytes_read: bigint;
  /** Rows (clustering entries) pulled from the partition within the window. */
  readonly rows_read: bigint;
  /** Rows handed back to callers within the window; rows_read minus rows_returned is filtered-out read amplification. */
  readonly rows_returned: bigint;
  /**
   * When the threshold was crossed, in microseconds since the Unix epoch (UTC).
   * Avro logicalType timestamp-micros, not interpreted: the raw value.
   */
  readonly detected_at: bigint;
  /** Whether the partition is known to receive no more writes (Netflix v1 only splits those; mutable link partitions need dual writes while splitting). */
  readonly immutable: boolean;
  /** Length of the observation window the counters cover, in milliseconds. */
  readonly window_ms: bigint;
}

/** The parsed Avro schema of WidePartitionDetected (schemas/avro/WidePartitionDetected.v1.avsc). */
export const WidePartitionDetectedAvsc = {
  "type": "record",
  "name": "WidePartitionDetected",
  "namespace": "io.edgestream",
  "doc": "A read observed a partition crossing the width threshold within a window. Emitted at most once per partition per cool-down; input to the split planner.",
  "fields": [
    {
      "name": "namespace",
      "type": "string",
      "doc": "The storage namespace (table) the partition belongs to, e.g. 'links_out_follows'."
    },
    {
      "name": "partition_id",
      "type": "string",
      "doc": "The partition key (the two-level map's outer id) that read wide."
    },
    {
      "name": "bytes_read",
      "type": "long",
      "doc": "Bytes pulled from the partition within the window."
    },
    {
      "name": "rows_read",
      "type": "long",
      "doc": "Rows (clustering entries) pulled from the partition within the window."
    },
    {
      "name": "rows_returned",
      "type": "long",
      "doc": "Rows handed back to callers within the window; rows_read minus rows_returned is filtered-out read amplification."
    },
    {
      "name": "detected_at",
      "type": {
        "type": "long",
        "logicalType": "timestamp-micros"
      },
      "doc": "When the threshold was crossed, in microseconds since the Unix epoch (UTC)."
    },
    {
      "name": "immutable",
      "type": "boolean",
      "doc": "Whether the partition is known to receive no more writes (Netflix v1 only splits those; mutable link partitions need dual writes while splitting)."
    },
    {
      "name": "window_ms",
      "type": "long",
      "doc": "Length of the observation window the counters cover, in milliseconds."
    }
  ]
} as const;

/** The version of WidePartitionDetectedAvsc, from its file name. */
export const WidePartitionDetectedAvscVersion = 1;
