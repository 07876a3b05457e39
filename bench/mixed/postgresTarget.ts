import pg from 'pg';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { round } from '../ingest/stats.ts';
import type { GraphLink, LinkGraph } from './linkGraph.ts';
import { nowMicros, type MixTarget } from './mixTarget.ts';
import { LINKS_LIST_LIMIT, type MixOp } from './opMix.ts';
import { LINK_TYPE, linkRow, loadBatchParams, PG, planWrite, pointLink, POSTGRES_DDL, type Statement } from './postgresSql.ts';

/** int8 (time, count) as bigint, like the other systems' answers; every other type as node-postgres parses it. */
const INT8_AS_BIGINT: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => (oid === pg.types.builtins.INT8 ? (v: string) => BigInt(v) : pg.types.getTypeParser(oid, format as 'text'))) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The PostgreSQL anchor: LinkBench's link store (postgresSql.ts) through a
 * pool of node-postgres connections with named prepared statements. Reads are
 * one statement each; ADD/UPDATE/DELETE are transactions as LinkBench's
 * stores run them: lock and read the link, write it, move the count in
 * counttable, commit (durable: the server's default synchronous_commit).
 */
export async function createPostgresLinkStore(o: { connection: pg.ClientConfig; poolSize: number }) {
  const pool = new pg.Pool({ ...o.connection, max: o.poolSize, idleTimeoutMillis: 0, types: INT8_AS_BIGINT });
  pool.on('error', () => undefined); // an idle connection's error surfaces on its next query
  for (const ddl of POSTGRES_DDL) await pool.query(ddl);
  const exec = (s: Statement, values: unknown[], on: pg.Pool | pg.PoolClient = pool) => on.query({ name: s.name, text: s.text, values });

  const inTransaction = async (fn: (c: pg.PoolClient) => Promise<unknown>): Promise<void> => {
    const c = await pool.connect();
    let failed: Error | undefined;
    try {
      await c.query('BEGIN');
      await fn(c);
      await c.query('COMMIT');
    } catch (e) {
      failed = e instanceof Error ? e : new Error(String(e));
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release(failed); // a failed connection is closed, not reused
    }
  };
  const lockLink = async (c: pg.PoolClient, src: string, dst: string) => (await exec(PG.lockLink, [src, LINK_TYPE, dst], c)).rows[0] as { visibility: number } | undefined;

  const upsert = (src: string, dst: string, time: bigint, data: Uint8Array) =>
    inTransaction(async (c) => {
      let plan = planWrite('upsert', await lockLink(c, src, dst));
      // A concurrent ADD of the same new link inserted it first: lock it and update it instead.
      if (plan.write === 'insert' && (await exec(PG.insertLink, [src, LINK_TYPE, dst, data, time], c)).rowCount === 0) plan = planWrite('upsert', await lockLink(c, src, dst));
      if (plan.write === 'update') await exec(PG.updateLink, [src, LINK_TYPE, dst, data, time], c);
      if (plan.countDelta !== 0) await exec(PG.addCount, [src, LINK_TYPE, plan.countDelta, time], c);
    });
  const hide = (src: string, dst: string) =>
    inTransaction(async (c) => {
      const plan = planWrite('hide', await lockLink(c, src, dst));
      if (plan.write !== 'hide') return;
      await exec(PG.hideLink, [src, LINK_TYPE, dst], c);
      await exec(PG.addCount, [src, LINK_TYPE, plan.countDelta, nowMicros()], c);
    });

  const target: MixTarget = {
    async execute(op: MixOp) {
      switch (op.kind) {
        case 'GET_LINKS_LIST':
          return void (await exec(PG.page, [op.src, LINK_TYPE, LINKS_LIST_LIMIT]));
        case 'MULTIGET_LINK':
          return void (await exec(PG.multiget, [op.src, LINK_TYPE, op.dsts]));
        case 'COUNT_LINK':
          return void (await exec(PG.count, [op.src, LINK_TYPE]));
        case 'ADD_LINK':
        case 'UPDATE_LINK':
          return upsert(op.src, op.dst, nowMicros(), op.data);
        case 'DELETE_LINK':
          return hide(op.src, op.dst);
      }
    },
    page: async (src, limit) => (await exec(PG.page, [src, LINK_TYPE, limit])).rows.map(linkRow),
    links: async (src, dsts) => (await exec(PG.multiget, [src, LINK_TYPE, dsts])).rows.map(pointLink),
    count: async (src) => ((await exec(PG.count, [src, LINK_TYPE])).rows[0]?.count as bigint | undefined) ?? 0n,
  };

  return {
    target,
    close: () => pool.end(),
    /**
     * Loads the graph's links in the bulk load's order, `batchLinks` per
     * transaction (the links as one multi-row INSERT from arrays, then their
     * sources' counts added), `concurrency` transactions in flight: at every
     * commit the counts equal the committed links. Then VACUUM ANALYZE (the
     * planner's statistics and the visibility map), timed apart.
     */
    async load(graph: LinkGraph, l: { batchLinks: number; concurrency: number; status: ReturnType<typeof createStatusLine>; label: string }) {
      const t0 = performance.now();
      const loadTime = nowMicros();
      const inFlight = new Set<Promise<unknown>>();
      let links = 0;
      const flush = async (batch: GraphLink[]) => {
        const p = loadBatchParams(batch, loadTime);
        const commit = inTransaction(async (c) => {
          await exec(PG.loadLinks, p.links, c);
          await exec(PG.loadCounts, p.counts, c);
        });
        inFlight.add(commit);
        const done = () => inFlight.delete(commit);
        commit.then(done, done); // a failure surfaces through the race or the final Promise.all
        links += batch.length;
        if (inFlight.size >= l.concurrency) await Promise.race(inFlight);
        l.status.update(`${l.label}: ${links}/${graph.totalLinks} links, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      };
      let batch: GraphLink[] = [];
      for (const link of graph.allLinks()) {
        batch.push(link);
        if (batch.length >= l.batchLinks) {
          await flush(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await flush(batch);
      await Promise.all(inFlight);
      const seconds = (performance.now() - t0) / 1000;
      const a0 = performance.now();
      await pool.query('VACUUM ANALYZE linktable, counttable');
      return { links, seconds: round(seconds, 2), linksPerSecond: Math.round(links / seconds), batchLinks: l.batchLinks, concurrency: l.concurrency, vacuumAnalyzeSeconds: round((performance.now() - a0) / 1000, 2) };
    },
  };
}

export type PostgresLinkStore = Awaited<ReturnType<typeof createPostgresLinkStore>>;
