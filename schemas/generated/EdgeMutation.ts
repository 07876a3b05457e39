// GENERATED from schemas/avro/EdgeMutation.v2.avsc by `npm run codegen`. Do not edit.
// Avro long is bigint here (see schemas/runtime/bigintLongType.ts).

/** One mutation of the edge graph. Keyed by src on Kafka so every mutation of a source vertex is ordered. Applied idempotently: last write wins on event_time, mutation_id dedupes retries. */
export interface EdgeMutation {
  /** Idempotency token, unique per logical mutation and made by the producer. A retried or replayed event keeps the same id. */
  readonly mutation_id: string;
  /** The kind of mutation: ADD_EDGE, REMOVE_EDGE, HIDE_EDGE (the edge stays, readable by a point read, but leaves neighbour pages, counts and traversals), UNHIDE_EDGE (ACTIVE again), SET_PROPERTIES (upsert the given properties), REMOVE_PROPERTIES (delete property_keys), REMOVE_NODE (cascade over every edge of src). HIDE_EDGE and UNHIDE_EDGE are new in v2. */
  readonly op: EdgeOp;
  /** Edge label, e.g. 'follows'. Selects the link and property namespaces. */
  readonly edge_type: string;
  /** Source vertex id; also the Kafka message key. For REMOVE_NODE, the vertex being removed. */
  readonly src: string;
  /** Target vertex id. Empty string for REMOVE_NODE. */
  readonly dst: string;
  /**
   * When the mutation happened, in microseconds since the Unix epoch (UTC). The last-write-wins clock: writes use it as the Cassandra write timestamp, so final state does not depend on arrival order.
   * Avro logicalType timestamp-micros, not interpreted: the raw value.
   */
  readonly event_time: bigint;
  /** Typed property values to set (SET_PROPERTIES, or initial properties on ADD_EDGE). A null value is a property explicitly set to null, not a delete; deletes use REMOVE_PROPERTIES. */
  readonly properties: Readonly<Record<string, null | boolean | bigint | number | string | Buffer>>;
  /** Names of the properties to delete (REMOVE_PROPERTIES). Empty for other ops. */
  readonly property_keys: readonly string[];
  /** The edge's time, the ordering key of newest-first pages, in microseconds since the Unix epoch (UTC), for ADD_EDGE, HIDE_EDGE and UNHIDE_EDGE; null means event_time. Last-write-wins between writes of one edge stays on event_time. New in v2. */
  readonly edge_time?: null | bigint;
  /** A small opaque payload stored on the edge itself (at most limits.maxEdgeDataBytes, 255 by default) and returned with it by pages and point reads, for ADD_EDGE, HIDE_EDGE and UNHIDE_EDGE; null means none. New in v2. */
  readonly data?: null | Buffer;
}

/** What the mutation does. */
export const EdgeOp = {
  ADD_EDGE: 'ADD_EDGE',
  REMOVE_EDGE: 'REMOVE_EDGE',
  SET_PROPERTIES: 'SET_PROPERTIES',
  REMOVE_PROPERTIES: 'REMOVE_PROPERTIES',
  REMOVE_NODE: 'REMOVE_NODE',
  HIDE_EDGE: 'HIDE_EDGE',
  UNHIDE_EDGE: 'UNHIDE_EDGE',
} as const;
export type EdgeOp = (typeof EdgeOp)[keyof typeof EdgeOp];

/** The parsed Avro schema of EdgeMutation (schemas/avro/EdgeMutation.v2.avsc). */
export const EdgeMutationAvsc = {
  "type": "record",
  "name": "EdgeMutation",
  "namespace": "io.edgestream",
  "doc": "One mutation of the edge graph. Keyed by src on Kafka so every mutation of a source vertex is ordered. Applied idempotently: last write wins on event_time, mutation_id dedupes retries.",
  "fields": [
    {
      "name": "mutation_id",
      "type": "string",
      "doc": "Idempotency token, unique per logical mutation and made by the producer. A retried or replayed event keeps the same id."
    },
    {
      "name": "op",
      "type": {
        "type": "enum",
        "name": "EdgeOp",
        "doc": "What the mutation does.",
        "symbols": [
          "ADD_EDGE",
          "REMOVE_EDGE",
          "SET_PROPERTIES",
          "REMOVE_PROPERTIES",
          "REMOVE_NODE",
          "HIDE_EDGE",
          "UNHIDE_EDGE"
        ]
      },
      "doc": "The kind of mutation: ADD_EDGE, REMOVE_EDGE, HIDE_EDGE (the edge stays, readable by a point read, but leaves neighbour pages, counts and traversals), UNHIDE_EDGE (ACTIVE again), SET_PROPERTIES (upsert the given properties), REMOVE_PROPERTIES (delete property_keys), REMOVE_NODE (cascade over every edge of src). HIDE_EDGE and UNHIDE_EDGE are new in v2."
    },
    {
      "name": "edge_type",
      "type": "string",
      "doc": "Edge label, e.g. 'follows'. Selects the link and property namespaces."
    },
    {
      "name": "src",
      "type": "string",
      "doc": "Source vertex id; also the Kafka message key. For REMOVE_NODE, the vertex being removed."
    },
    {
      "name": "dst",
      "type": "string",
      "doc": "Target vertex id. Empty string for REMOVE_NODE."
    },
    {
      "name": "event_time",
      "type": {
        "type": "long",
        "logicalType": "timestamp-micros"
      },
      "doc": "When the mutation happened, in microseconds since the Unix epoch (UTC). The last-write-wins clock: writes use it as the Cassandra write timestamp, so final state does not depend on arrival order."
    },
    {
      "name": "properties",
      "type": {
        "type": "map",
        "values": [
          "null",
          "boolean",
          "long",
          "double",
          "string",
          "bytes"
        ]
      },
      "default": {},
      "doc": "Typed property values to set (SET_PROPERTIES, or initial properties on ADD_EDGE). A null value is a property explicitly set to null, not a delete; deletes use REMOVE_PROPERTIES."
    },
    {
      "name": "property_keys",
      "type": {
        "type": "array",
        "items": "string"
      },
      "default": [],
      "doc": "Names of the properties to delete (REMOVE_PROPERTIES). Empty for other ops."
    },
    {
      "name": "edge_time",
      "type": [
        "null",
        {
          "type": "long",
          "logicalType": "timestamp-micros"
        }
      ],
      "default": null,
      "doc": "The edge's time, the ordering key of newest-first pages, in microseconds since the Unix epoch (UTC), for ADD_EDGE, HIDE_EDGE and UNHIDE_EDGE; null means event_time. Last-write-wins between writes of one edge stays on event_time. New in v2."
    },
    {
      "name": "data",
      "type": [
        "null",
        "bytes"
      ],
      "default": null,
      "doc": "A small opaque payload stored on the edge itself (at most limits.maxEdgeDataBytes, 255 by default) and returned with it by pages and point reads, for ADD_EDGE, HIDE_EDGE and UNHIDE_EDGE; null means none. New in v2."
    }
  ]
} as const;

/** The version of EdgeMutationAvsc, from its file name. */
export const EdgeMutationAvscVersion = 2;
