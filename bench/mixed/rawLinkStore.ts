import cassandra from 'cassandra-driver';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { round } from '../ingest/stats.ts';
import { vertexId, type LinkGraph } from './linkGraph.ts';
import { base64, nowMicros, type LinkRow, type MixTarget, type PointLink } from './mixTarget.ts';
import { LINKS_LIST_LIMIT, type MixOp } from './opMix.ts';

/**
 * The raw-driver anchor: the least work LinkBench's link answers need on the
 * same Cassandra, in its own keyspace, with prepared statements at
 * LOCAL_QUORUM (as edgestream's store) and the driver's client timestamps:
 * - `links (src, dst) → time, data, visible`: point reads and multi-gets (`dst IN ?`);
 * - `links_by_time (src, time DESC, dst) → data`: only visible links, so
 *   GET_LINKS_LIST is one 50-row slice;
 * - `link_counts (src) → n counter`: COUNT_LINK is one point read.
 * A write reads the link first (whether it exists and its old time: the old
 * time's row must go and the count moves only when visibility changes), then
 * writes both tables in one unlogged batch (one partition key value) and the
 * counter. LinkBench's MySQL store does the same work in a transaction.
 */
export async function createRawLinkStore(cql: cassandra.Client, keyspace: string) {
  const ks = `"${keyspace}"`;
  const consistency = cassandra.types.consistencies.localQuorum;
  const options = { prepare: true, consistency };
  for (const ddl of [
    `CREATE KEYSPACE IF NOT EXISTS ${ks} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
    `CREATE TABLE IF NOT EXISTS ${ks}.links (src text, dst text, time bigint, data blob, visible boolean, PRIMARY KEY (src, dst))`,
    `CREATE TABLE IF NOT EXISTS ${ks}.links_by_time (src text, time bigint, dst text, data blob, PRIMARY KEY (src, time, dst)) WITH CLUSTERING ORDER BY (time DESC, dst ASC)`,
    `CREATE TABLE IF NOT EXISTS ${ks}.link_counts (src text PRIMARY KEY, n counter)`,
  ]) {
    await cql.execute(ddl, [], { readTimeout: 60_000 });
  }
  const q = {
    page: `SELECT dst, time, data FROM ${ks}.links_by_time WHERE src = ? LIMIT ?`,
    multiget: `SELECT dst, time, data, visible FROM ${ks}.links WHERE src = ? AND dst IN ?`,
    readLink: `SELECT time, visible FROM ${ks}.links WHERE src = ? AND dst = ?`,
    count: `SELECT n FROM ${ks}.link_counts WHERE src = ?`,
    insertLink: `INSERT INTO ${ks}.links (src, dst, time, data, visible) VALUES (?, ?, ?, ?, true)`,
    insertByTime: `INSERT INTO ${ks}.links_by_time (src, time, dst, data) VALUES (?, ?, ?, ?)`,
    deleteByTime: `DELETE FROM ${ks}.links_by_time WHERE src = ? AND time = ? AND dst = ?`,
    hideLink: `UPDATE ${ks}.links SET visible = false WHERE src = ? AND dst = ?`,
    addCount: `UPDATE ${ks}.link_counts SET n = n + ? WHERE src = ?`,
  };
  /** The driver takes blobs as Buffers only. */
  const blob = (d: Uint8Array) => Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  const exec = (query: string, params: unknown[]) => cql.execute(query, params, options);
  const batch = (queries: { query: string; params: unknown[] }[]) => cql.batch(queries, { ...options, logged: false });
  const readLink = async (src: string, dst: string) => {
    const row = (await exec(q.readLink, [src, dst])).first();
    return row ? { time: row['time'] as bigint, visible: row['visible'] === true } : undefined;
  };

  const upsert = async (src: string, dst: string, time: bigint, data: Uint8Array): Promise<void> => {
    const old = await readLink(src, dst);
    const writes = [
      { query: q.insertLink, params: [src, dst, time, blob(data)] },
      { query: q.insertByTime, params: [src, time, dst, blob(data)] },
    ];
    if (old?.visible && old.time !== time) writes.push({ query: q.deleteByTime, params: [src, old.time, dst] });
    await batch(writes);
    if (!old?.visible) await exec(q.addCount, [1n, src]);
  };
  const hide = async (src: string, dst: string): Promise<void> => {
    const old = await readLink(src, dst);
    if (!old?.visible) return;
    await batch([
      { query: q.hideLink, params: [src, dst] },
      { query: q.deleteByTime, params: [src, old.time, dst] },
    ]);
    await exec(q.addCount, [-1n, src]);
  };
  const row = (r: cassandra.types.Row): LinkRow => ({ dst: r['dst'] as string, time: r['time'] as bigint, data: base64(r['data'] as Buffer | null ?? undefined) });

  const target: MixTarget = {
    async execute(op: MixOp) {
      switch (op.kind) {
        case 'GET_LINKS_LIST':
          return void (await exec(q.page, [op.src, LINKS_LIST_LIMIT]));
        case 'MULTIGET_LINK':
          return void (await exec(q.multiget, [op.src, op.dsts]));
        case 'COUNT_LINK':
          return void (await exec(q.count, [op.src]));
        case 'ADD_LINK':
        case 'UPDATE_LINK':
          return upsert(op.src, op.dst, nowMicros(), op.data);
        case 'DELETE_LINK':
          return hide(op.src, op.dst);
      }
    },
    page: async (src, limit) => (await exec(q.page, [src, limit])).rows.map(row),
    links: async (src, dsts): Promise<PointLink[]> => (await exec(q.multiget, [src, dsts])).rows.map((r) => ({ ...row(r), visible: r['visible'] === true })),
    count: async (src) => ((await exec(q.count, [src])).first()?.['n'] as bigint | undefined) ?? 0n,
  };

  return {
    keyspace,
    target,
    /**
     * Loads the graph's links: per link one unlogged batch of its two rows,
     * per vertex one counter update, `concurrency` requests in flight.
     */
    async load(graph: LinkGraph, o: { concurrency: number; status: ReturnType<typeof createStatusLine>; label: string }) {
      const t0 = performance.now();
      const inFlight = new Set<Promise<unknown>>();
      let links = 0;
      const issue = async (p: Promise<unknown>) => {
        inFlight.add(p);
        const done = () => inFlight.delete(p);
        p.then(done, done); // a failure surfaces through the race or the final Promise.all
        if (inFlight.size >= o.concurrency) await Promise.race(inFlight);
      };
      for (let v = 0; v < graph.spec.ids; v++) {
        for (const l of graph.linksOf(v)) {
          await issue(batch([
            { query: q.insertLink, params: [l.src, l.dst, l.time, blob(l.data)] },
            { query: q.insertByTime, params: [l.src, l.time, l.dst, blob(l.data)] },
          ]));
          links++;
        }
        if (graph.degree(v) > 0) await issue(exec(q.addCount, [BigInt(graph.degree(v)), vertexId(v)]));
        o.status.update(`${o.label}: ${links}/${graph.totalLinks} links, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
      await Promise.all(inFlight);
      const seconds = (performance.now() - t0) / 1000;
      return { links, seconds: round(seconds, 2), linksPerSecond: Math.round(links / seconds), concurrency: o.concurrency };
    },
  };
}

export type RawLinkStore = Awaited<ReturnType<typeof createRawLinkStore>>;
