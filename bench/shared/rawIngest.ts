import type cassandra from 'cassandra-driver';
import { Partitioners } from 'kafkajs';
import type { EdgeMutation } from '../../schemas/index.ts';
import { cassandraStoreConfigSchema } from '../../sinks/cassandra/cassandraStoreConfig.ts';
import { asBuffer } from '../../sinks/cassandra/namespaceRuntime.ts';
import { namespaceStatements, type NamespaceStatements } from '../../sinks/cassandra/namespaceStatements.ts';
import { packRequests } from '../../sinks/cassandra/readCellsAt.ts';
import { encodeVertexKey, forwardLinkNamespace } from '../../sinks/namespaces/index.ts';
import { bytesKey } from '../../sinks/store/cellKey.ts';
import { mapBoundedOrThrow } from '../../sinks/store/mapBounded.ts';
import type { Cell, Mutation } from '../../sinks/store/TwoLevelMapStore.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { fanOutWaves, newerCell, writtenForwardLink } from './fanOutWaves.ts';
import { RAW_OPTIONS } from './rawKeyspace.ts';
import { chunksByPartition, sharesEdge, waveRequests, type BatchLimits, type EventChunk, type RawRequest } from './rawIngestPlan.ts';

/** The store's batching and read-packing limits at their config defaults (what the pipeline runs with). */
const STORE = cassandraStoreConfigSchema.parse({ contactPoints: ['-'], localDataCenter: '-', keyspace: 'defaults', namespaces: [] });
const LIMITS: BatchLimits = { maxPartitions: STORE.maxBatchPartitions, maxStatements: STORE.maxBatchStatements, maxBytes: STORE.maxCrossPartitionBatchBytes, maxPartitionBatchBytes: STORE.maxBatchBytes };

export interface RawIngestRun {
  readonly chunksInFlight: number;
  readonly events: number;
  /** Cells of the answer written (`tables` only), deletions of superseded entries included. */
  readonly rows: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
  readonly rowsPerSecond: number;
  /** Requests sent: current-link reads and write batches (a lone statement counts as one). */
  readonly readRequests: number;
  readonly writeRequests: number;
}

/**
 * The least work the pipeline's answer needs, with the raw driver, shaped as the pipeline
 * sends it (bench/ingest/README.md, "Raw ceilings"): the events cut into the chunks the
 * fan-out's consumers take (`chunkEvents` per input partition, the producer's partitioner
 * over `partitions`); per chunk, one packed read of every event's current forward link
 * (`T_out[src][dst]` with its write time, the exact index's read before write, packed as
 * `getCells` packs it), then the fan-out's own write waves for what was read (links and
 * properties, then the index entries; a superseded entry's deletion first), each wave
 * batched as `mutateMany` batches it. Only the cells of `tables` are written: degree intents
 * and marks and node-tombstone reads are not part of this answer. An edge that repeats
 * within a chunk reads back what the chunk's earlier event wrote (the client knows it), and
 * a chunk that shares an edge with one still in flight waits for it. `chunksInFlight` chunks
 * run at once, each with the store's `mutationConcurrency` requests in flight.
 */
export async function runRawIngest(o: {
  client: cassandra.Client;
  keyspace: string;
  tables: readonly string[];
  events: Iterable<EdgeMutation>;
  eventCount: number;
  partitions: number;
  /** Events per chunk: the runtime's `maxRecordsPerChunk`. */
  chunkEvents: number;
  chunksInFlight: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
  /** Called as the clock starts (after the statements were prepared), e.g. to start CPU accounting. */
  onStart?: () => void;
}): Promise<RawIngestRun> {
  const statements = new Map(o.tables.map((t) => [t, namespaceStatements(o.keyspace, t)]));
  const statementsOf = (t: string): NamespaceStatements => {
    const s = statements.get(t);
    if (s === undefined) throw new Error(`raw ingest: no table for namespace ${t}`);
    return s;
  };
  const keep = new Set(o.tables);
  const replicaSetOf = (id: string): string | undefined => {
    const hosts = o.client.getReplicas(o.keyspace, Buffer.from(id, 'utf8')) as { address: string }[] | null | undefined;
    return hosts && hosts.length > 0 ? hosts.map((h) => h.address).sort().join(',') : undefined;
  };
  await o.client.metadata.refreshKeyspace(o.keyspace); // the token map names replicas only once it knows the keyspace
  await prepareAll(o.client, [...statements.values()]);
  const partitionOf = kafkaPartitionOf(o.partitions);
  const chunks = chunksByPartition(o.events, (e) => partitionOf(e.src), o.chunkEvents);
  let events = 0;
  let rows = 0;
  let readRequests = 0;
  let writeRequests = 0;
  const inFlight = new Set<{ edges: Set<string>; done: Promise<void> }>();

  const runChunk = async (chunk: EventChunk<EdgeMutation>): Promise<void> => {
    const current = await readCurrentLinks(chunk.events);
    const waves: Mutation[][] = [];
    for (const e of chunk.events) {
      const key = edgeKey(e);
      const eventWaves = fanOutWaves(e, current.get(key));
      current.set(key, newerCell(current.get(key), writtenForwardLink(e, eventWaves)));
      eventWaves.forEach((wave, i) => (waves[i] ??= []).push(...wave.filter((m) => keep.has(m.namespace))));
    }
    for (const wave of waves) {
      const requests = waveRequests(wave, { statementsOf, replicaSetOf, limits: LIMITS });
      writeRequests += requests.length;
      await mapBoundedOrThrow(requests, STORE.mutationConcurrency, (batch) => send(batch));
      rows += requests.reduce((n, r) => n + r.statements.length, 0);
    }
    events += chunk.events.length;
  };

  const readCurrentLinks = async (chunkEvents: readonly EdgeMutation[]): Promise<Map<string, Cell | undefined>> => {
    const asked = new Map<string, Map<string, Uint8Array>>();
    for (const e of chunkEvents) {
      const key = encodeVertexKey(e.dst);
      let keys = asked.get(e.src);
      if (keys === undefined) asked.set(e.src, (keys = new Map()));
      keys.set(bytesKey(key), key);
    }
    const found = new Map<string, Cell | undefined>();
    const requests = packRequests(asked, STORE);
    readRequests += requests.length;
    await mapBoundedOrThrow(requests, STORE.mutationConcurrency, async ({ ids, keys }) => {
      const rs = await o.client.execute(statementsOf(forwardLinkNamespace(chunkEvents[0]?.edge_type ?? '')).getCells, [ids, [...keys.values()].map(asBuffer)], { ...RAW_OPTIONS, routingKey: Buffer.from(ids[0] as string, 'utf8') });
      for (const r of rs.rows) {
        const id = r['id'] as string;
        const k = r['key'] as Buffer;
        if (asked.get(id)?.has(bytesKey(k)) !== true) continue;
        found.set(`${id}\u0000${bytesKey(k)}`, { key: k, value: r['value'] as Buffer, writeTime: BigInt(r['write_time'] as bigint) });
      }
    });
    return new Map(chunkEvents.map((e) => [edgeKey(e), found.get(`${e.src}\u0000${bytesKey(encodeVertexKey(e.dst))}`)]));
  };

  const send = async ({ routingId, statements: batch }: RawRequest): Promise<void> => {
    // A text partition key's routing key is its UTF-8 bytes (as the store's session routes).
    const routingKey = Buffer.from(routingId, 'utf8');
    const first = batch[0] as (typeof batch)[number];
    if (batch.length === 1) await o.client.execute(first.query, [...first.params], { ...RAW_OPTIONS, routingKey });
    else await o.client.batch(batch as { query: string; params: unknown[] }[], { ...RAW_OPTIONS, logged: false, routingKey });
  };

  o.onStart?.();
  const t0 = performance.now();
  const ticker = setInterval(() => {
    const secs = (performance.now() - t0) / 1000;
    o.status.update(`${o.label}: ${events}/${o.eventCount} events, ${Math.round(events / secs)} events/s, ${Math.round(rows / secs)} rows/s`);
  }, 250);
  try {
    const worker = async (): Promise<void> => {
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        const edges = new Set(next.value.events.map(edgeKey));
        const earlier = [...inFlight].filter((c) => sharesEdge(edges, c.edges)).map((c) => c.done);
        const entry = { edges, done: Promise.all(earlier).then(() => runChunk(next.value)) };
        inFlight.add(entry);
        try {
          await entry.done;
        } finally {
          inFlight.delete(entry);
        }
      }
    };
    await Promise.all(Array.from({ length: o.chunksInFlight }, worker));
  } finally {
    clearInterval(ticker);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { chunksInFlight: o.chunksInFlight, events, rows, seconds: Math.round(seconds * 100) / 100, eventsPerSecond: Math.round(events / seconds), rowsPerSecond: Math.round(rows / seconds), readRequests, writeRequests };
}

/** Prepares every statement a run sends before its clock starts (a write and a delete of a throwaway row, a cell read). */
async function prepareAll(client: cassandra.Client, all: readonly NamespaceStatements[]): Promise<void> {
  const id = 'raw-ingest-warmup';
  const key = Buffer.from('w');
  for (const s of all) {
    await client.execute(s.insert, [id, key, key, Buffer.alloc(0), 1n], RAW_OPTIONS);
    await client.execute(s.deleteRow, [2n, id, key], RAW_OPTIONS);
    await client.execute(s.getCells, [[id], [key]], RAW_OPTIONS);
  }
}

const edgeKey = (e: EdgeMutation): string => `${e.src}\u0000${e.dst}`;

/** The input partition Kafka's default partitioner (murmur2, as the producer SDK) gives a key over `partitions`. */
function kafkaPartitionOf(partitions: number): (key: string) => number {
  const choose = Partitioners.DefaultPartitioner();
  const partitionMetadata = Array.from({ length: partitions }, (_, i) => ({ partitionId: i, leader: 0 }));
  return (key) => choose({ topic: 'raw-ingest', partitionMetadata: partitionMetadata as never, message: { key, value: null } });
}
