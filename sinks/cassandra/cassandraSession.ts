import cassandra from 'cassandra-driver';
import type { types } from 'cassandra-driver';
import { StoreError } from '../store/StoreError.ts';
import type { SerialConsistencyLevel } from '../../schemas/config/cassandraConfig.ts';
import type { ConsistencyLevel, ParsedCassandraStoreConfig } from './cassandraStoreConfig.ts';
import { toStoreError } from './toStoreError.ts';
import { nativePortOptions } from './nativePort.ts';

/** A CQL text with its bound values, run as a prepared statement. */
export interface BoundStatement {
  readonly query: string;
  readonly params: readonly unknown[];
}

/**
 * The thin adapter over cassandra-driver: every data statement is prepared
 * (`prepare: true`; the driver prepares each text once per host and caches
 * it) and marked idempotent (true for every write here, since each carries
 * an explicit `USING TIMESTAMP`), and every failure leaves through
 * `toStoreError`. `what` names the operation in error messages; a function
 * is called only when a message needs it (the write path's names are built
 * per partition, and almost never read).
 */
export interface CassandraSession {
  connect(): Promise<void>;
  /** `deadlineMs` (epoch ms): fail with a retriable `timeout` instead of waiting past it (see `WriteOptions.timeoutMs`). */
  execute(statement: BoundStatement, what: Description, deadlineMs?: number): Promise<void>;
  /**
   * Rows of a read, following driver pages until `maxRows` rows are in hand or
   * the result ends. `routingId` sends a read the driver cannot route itself
   * (`id IN ?`) to a replica of that partition id.
   */
  readRows(statement: BoundStatement, opts: { maxRows: number; fetchSize?: number; routingId?: string }, what: string): Promise<types.Row[]>;
  /**
   * One unlogged batch: statements of one partition key value (possibly of
   * several tables), or of a few partitions with one replica set (`replicaSetOf`).
   */
  batch(statements: readonly BoundStatement[], what: Description, deadlineMs?: number): Promise<void>;
  /**
   * Names the replica set of the partition whose `id text` partition key is
   * `id` in `keyspace` (the driver's token map), undefined while the driver has
   * no token metadata for the keyspace.
   */
  replicaSetOf(keyspace: string, id: string): string | undefined;
  /** Unprepared schema statements (DDL cannot be prepared); only validated identifiers reach them. */
  ddl(cql: string, what: string): Promise<void>;
  shutdown(): Promise<void>;
}

/** The name of an operation for error messages, or how to build it. */
export type Description = string | (() => string);

const describe = (what: Description): string => (typeof what === 'string' ? what : what());

/** Rows per driver page, so one response frame stays bounded whatever the slice limit. */
const MAX_FETCH_ROWS = 1000;

/** The driver's code of each level (the benches' raw clients take the store's read level from it). */
export const CONSISTENCY: Readonly<Record<ConsistencyLevel, number>> = {
  ONE: cassandra.types.consistencies.one,
  LOCAL_ONE: cassandra.types.consistencies.localOne,
  QUORUM: cassandra.types.consistencies.quorum,
  LOCAL_QUORUM: cassandra.types.consistencies.localQuorum,
  ALL: cassandra.types.consistencies.all,
};

const SERIAL_CONSISTENCY: Readonly<Record<SerialConsistencyLevel, number>> = {
  SERIAL: cassandra.types.consistencies.serial,
  LOCAL_SERIAL: cassandra.types.consistencies.localSerial,
};

export function createCassandraSession(config: ParsedCassandraStoreConfig): CassandraSession {
  const client = new cassandra.Client({
    contactPoints: [...config.contactPoints],
    ...nativePortOptions(config.contactPoints),
    localDataCenter: config.localDataCenter,
    ...(config.credentials ? { authProvider: new cassandra.auth.PlainTextAuthProvider(config.credentials.username, config.credentials.password) } : {}),
    ...(config.sslOptions ? { sslOptions: config.sslOptions } : {}),
    // Write times are bigint microseconds end to end. Blobs are views of the response frame, not
    // copies: every reader copies what it keeps (readCells' arena, ownBytes), so a second copy per
    // cell only fed the garbage collector.
    encoding: { useBigIntAsLong: true, copyBuffer: false },
    socketOptions: { readTimeout: config.requestTimeoutMs, connectTimeout: Math.min(config.requestTimeoutMs, 10_000) },
  });
  // Levels per operation class: `execute` and `batch` write, `readRows` reads; a conditional
  // statement (none today) would run its Paxos phase at the serial level.
  const serialConsistency = SERIAL_CONSISTENCY[config.consistency.serial];
  const options = { prepare: true, isIdempotent: true, consistency: CONSISTENCY[config.consistency.writes], serialConsistency };
  const readOptions = { ...options, consistency: CONSISTENCY[config.consistency.reads] };
  let closed = false;

  const batchOptions = { ...options, logged: false };
  // A request with a deadline waits at most until then and is not re-sent to another host:
  // the default retry policy would try the next host on a client timeout, past the deadline.
  const fallthrough = new cassandra.policies.retry.FallthroughRetryPolicy();
  const until = <O extends object>(base: O, what: Description, deadlineMs: number | undefined): O => {
    if (deadlineMs === undefined) return base;
    const left = deadlineMs - Date.now();
    if (left <= 0) throw new StoreError('timeout', `${describe(what)}: the write deadline passed before the request was sent`);
    return { ...base, readTimeout: Math.min(config.requestTimeoutMs, left), retry: fallthrough };
  };
  /** The driver hands out one replica array per token range: name each array once. */
  const replicaSetNames = new WeakMap<object, string>();

  const guard = async <T>(what: Description, run: () => Promise<T>): Promise<T> => {
    if (closed) throw new StoreError('closed', `${describe(what)}: cassandra store is closed`);
    try {
      return await run();
    } catch (e) {
      throw toStoreError(e, describe(what));
    }
  };

  return {
    connect: () => guard('connect', () => client.connect()),
    execute: (s, what, deadlineMs) => guard(what, async () => void (await client.execute(s.query, s.params as unknown[], until(options, what, deadlineMs)))),
    readRows: (s, { maxRows, fetchSize, routingId }, what) =>
      guard(what, async () => {
        const rows: types.Row[] = [];
        let pageState: string | undefined;
        do {
          const page = await client.execute(s.query, [...s.params], {
            ...readOptions,
            fetchSize: fetchSize ?? Math.min(maxRows, MAX_FETCH_ROWS),
            // A text partition key's routing key is its UTF-8 bytes (as in replicaSetOf).
            ...(routingId === undefined ? {} : { routingKey: Buffer.from(routingId, 'utf8') }),
            ...(pageState === undefined ? {} : { pageState }),
          });
          rows.push(...page.rows);
          pageState = page.pageState ?? undefined;
        } while (pageState !== undefined && rows.length < maxRows);
        return rows.slice(0, maxRows);
      }),
    batch: (statements, what, deadlineMs) =>
      guard(what, async () => {
        // The driver only reads the statements: no copies.
        await client.batch(statements as { query: string; params: unknown[] }[], until(batchOptions, what, deadlineMs));
      }),
    replicaSetOf(keyspace, id) {
      // A text partition key's routing key is its UTF-8 bytes.
      const hosts = client.getReplicas(keyspace, Buffer.from(id, 'utf8')) as cassandra.Host[] | null | undefined;
      if (!hosts || hosts.length === 0) return undefined;
      let name = replicaSetNames.get(hosts);
      if (name === undefined) replicaSetNames.set(hosts, (name = hosts.map((h) => h.address).sort().join(',')));
      return name;
    },
    ddl: (cql, what) => guard(what, async () => void (await client.execute(cql, [], { consistency: options.consistency }))),
    async shutdown() {
      if (closed) return;
      closed = true;
      try {
        await client.shutdown();
      } catch (e) {
        throw toStoreError(e, 'close');
      }
    },
  };
}
