import type cassandra from 'cassandra-driver';
import pLimit from 'p-limit';
import { evenBatches } from '../../reads/evenBatches.ts';
import { qualifiedTable } from '../../sinks/cassandra/schemaCql.ts';
import { decodeLinkValue, decodeRecentKey, decodeVertexKey, isActiveAtInvertedTime, LinkState, linkNamespace, reverseRecentNamespace, type LinkDirection } from '../../sinks/namespaces/index.ts';

/**
 * The store's physical limit for each read the bench compares: the raw
 * cassandra-driver doing the least work a correct answer needs, with prepared
 * statements on the tables edgestream wrote (a newest page is one slice of the
 * time-ordered index; a scan pages that index with a large fetchSize; a
 * traversal issues the same link-partition pages with the same concurrency,
 * one partition per query or in edgestream's batches).
 */
export interface RawNeighbour {
  readonly peer: string;
  readonly time: bigint;
}

export interface RawHopStats {
  readonly queries: number;
  readonly rowsRead: number;
  readonly found: number;
}

const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

export function createRawReads(client: cassandra.Client, keyspace: string, edgeType: string) {
  const recentIn = qualifiedTable(keyspace, reverseRecentNamespace(edgeType));
  const pageCql = `SELECT key FROM ${recentIn} WHERE id = ? LIMIT ?`;
  const validateCql = `SELECT key, value FROM ${qualifiedTable(keyspace, linkNamespace(edgeType, 'in'))} WHERE id = ? AND key IN ?`;
  /** Per vertex, the peers the last validated page held: read together with the next slice, as edgestream's guesses do. */
  const lastPeers = new Map<string, Buffer[]>();
  const scanCql = `SELECT key FROM ${recentIn} WHERE id = ?`;
  const linkCql = (direction: LinkDirection) => {
    const table = qualifiedTable(keyspace, linkNamespace(edgeType, direction));
    return {
      first: `SELECT key, value FROM ${table} WHERE id = ? LIMIT ?`,
      after: `SELECT key, value FROM ${table} WHERE id = ? AND key > ? LIMIT ?`,
      firstPages: `SELECT id, key, value FROM ${table} WHERE id IN ? PER PARTITION LIMIT ? LIMIT ?`,
    };
  };

  return {
    /** The newest `limit` in-neighbours: one slice of `T_in_recent`. */
    async newestIn(vertex: string, limit: number): Promise<RawNeighbour[]> {
      const rs = await client.execute(pageCql, [vertex, limit], { prepare: true, fetchSize: limit });
      return rs.rows.map((r) => decodeRecentKey(bytes(r['key'] as Buffer)));
    },

    /**
     * The least work a *validated* newest page needs (the floor of the
     * validated index the exact one replaced, kept for comparison; not the
     * store's limit): the slice of `T_in_recent` and one
     * `key IN ?` read of those peers' links in `T_in`, which must be ACTIVE at
     * the entry's time. The peers of the vertex's last page are read while the
     * slice is in flight (one round trip, as edgestream's validation guesses);
     * peers they lack are read after it.
     */
    async newestInValidated(vertex: string, limit: number): Promise<RawNeighbour[]> {
      const guess = lastPeers.get(vertex);
      const early = guess === undefined ? undefined : client.execute(validateCql, [vertex, guess], { prepare: true, fetchSize: guess.length });
      const rs = await client.execute(pageCql, [vertex, limit], { prepare: true, fetchSize: limit });
      const keys = rs.rows.map((r) => r['key'] as Buffer);
      const peers = keys.map((k) => k.subarray(8));
      const links = new Map<string, Buffer>();
      for (const r of (await early)?.rows ?? []) links.set((r['key'] as Buffer).toString('latin1'), r['value'] as Buffer);
      const missing = peers.filter((p) => !links.has(p.toString('latin1')));
      if (missing.length > 0) for (const r of (await client.execute(validateCql, [vertex, missing], { prepare: true, fetchSize: missing.length })).rows) links.set((r['key'] as Buffer).toString('latin1'), r['value'] as Buffer);
      lastPeers.set(vertex, peers);
      const page: RawNeighbour[] = [];
      keys.forEach((key, i) => {
        const link = links.get((peers[i] as Buffer).toString('latin1'));
        if (link !== undefined && isActiveAtInvertedTime(bytes(link), bytes(key))) page.push(decodeRecentKey(bytes(key)));
      });
      return page;
    },

    /** Every in-neighbour newest first: `T_in_recent` paged with `fetchSize`; `onRow` sees each one. */
    async scanIn(vertex: string, fetchSize: number, onRow: (n: RawNeighbour) => void): Promise<{ rows: number; pages: number }> {
      let pageState: string | undefined;
      let rows = 0;
      let pages = 0;
      do {
        const rs = await client.execute(scanCql, [vertex], { prepare: true, fetchSize, ...(pageState === undefined ? {} : { pageState }) });
        pages++;
        for (const r of rs.rows) onRow(decodeRecentKey(bytes(r['key'] as Buffer)));
        rows += rs.rows.length;
        pageState = rs.pageState ?? undefined;
      } while (pageState !== undefined);
      return { rows, pages };
    },

    /**
     * The traversal's reads done by hand: breadth first, each hop's frontier
     * expanded `concurrency` reads at a time, each partition paged in
     * min(pageSize, what the cap still wants) link cells, ACTIVE peers not seen
     * before kept, no new page once the hop holds `cap` vertices. With `batch`,
     * a frontier of more than one vertex is first read as edgestream reads it:
     * ceil(n / batch.ids) even batches of `id IN ? PER PARTITION LIMIT ? LIMIT ?`
     * (min(pageSize, batch.firstPageCells, what the cap wants) per partition,
     * unpaged), started in edgestream's waves (two, then only while the batches
     * in flight are not expected to fill the cap at the new vertices per id seen),
     * then a partition whose first page was full is paged on its own.
     */
    async traverse(start: string, hops: readonly LinkDirection[], o: { cap: number; pageSize: number; concurrency: number; batch?: { ids: number; firstPageCells: number } }): Promise<RawHopStats[]> {
      const visited = new Set([start]);
      let frontier = [start];
      const stats: RawHopStats[] = [];
      for (const direction of hops) {
        const cql = linkCql(direction);
        const found: string[] = [];
        let queries = 0;
        let rowsRead = 0;
        const full = () => found.length >= o.cap;
        /** Keeps the new ACTIVE peers of a partition's rows, up to the cap. */
        const keep = (rows: readonly cassandra.types.Row[]): void => {
          rowsRead += rows.length;
          for (const r of rows) {
            if (full()) return;
            if (decodeLinkValue(bytes(r['value'] as Buffer)).state !== LinkState.ACTIVE) continue;
            const peer = decodeVertexKey(bytes(r['key'] as Buffer));
            if (visited.has(peer)) continue;
            visited.add(peer);
            found.push(peer);
          }
        };
        const expand = async (vertex: string, after?: Buffer): Promise<void> => {
          for (;;) {
            if (full()) return;
            const limit = Math.min(o.pageSize, o.cap - found.length);
            queries++;
            const rs = after === undefined ? await client.execute(cql.first, [vertex, limit], { prepare: true }) : await client.execute(cql.after, [vertex, after, limit], { prepare: true });
            keep(rs.rows);
            if (rs.rows.length < limit) return;
            after = rs.rows[rs.rows.length - 1]?.['key'] as Buffer;
          }
        };
        const limit = pLimit(o.concurrency);
        const continued: Promise<void>[] = [];
        // Waves as edgestream starts them: 2 batches, then only while those in flight are not expected to fill the cap.
        let inFlight = 0;
        let idsInFlight = 0;
        let idsAnswered = 0;
        let newAnswered = 0;
        let wake: (() => void)[] = [];
        const worthStarting = () =>
          inFlight === 0 || (idsAnswered === 0 ? inFlight < 2 : found.length + (newAnswered / idsAnswered) * idsInFlight < o.cap);
        const expandBatch = async (ids: readonly string[], firstPageCells: number): Promise<void> => {
          while (!full() && !worthStarting()) await new Promise<void>((r) => wake.push(r));
          if (full()) return;
          const perPartition = Math.min(o.pageSize, firstPageCells, o.cap - found.length);
          queries++;
          inFlight++;
          idsInFlight += ids.length;
          const rs = await client.execute(cql.firstPages, [ids, perPartition, ids.length * perPartition], { prepare: true, fetchSize: ids.length * perPartition });
          const before = found.length;
          const byId = new Map<string, cassandra.types.Row[]>();
          for (const r of rs.rows) {
            const rows = byId.get(r['id'] as string);
            if (rows === undefined) byId.set(r['id'] as string, [r]);
            else rows.push(r);
          }
          for (const [id, rows] of byId) {
            keep(rows);
            if (rows.length === perPartition && !full()) continued.push(limit(() => expand(id, rows[rows.length - 1]?.['key'] as Buffer)));
          }
          inFlight--;
          idsInFlight -= ids.length;
          idsAnswered += ids.length;
          newAnswered += found.length - before;
          const waiting = wake;
          wake = [];
          for (const w of waiting) w();
        };
        const batch = o.batch;
        if (batch === undefined || frontier.length === 1) await Promise.all(frontier.map((v) => limit(() => expand(v))));
        else await Promise.all(evenBatches(frontier, batch.ids).map((ids) => limit(() => expandBatch(ids, batch.firstPageCells))));
        await Promise.all(continued);
        stats.push({ queries, rowsRead, found: found.length });
        frontier = found;
      }
      return stats;
    },
  };
}

export type RawReads = ReturnType<typeof createRawReads>;
