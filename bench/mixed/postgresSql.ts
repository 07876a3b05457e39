import type { GraphLink } from './linkGraph.ts';
import { base64, type LinkRow, type PointLink } from './mixTarget.ts';

/**
 * The PostgreSQL anchor's schema and statements: LinkBench's (its MySQL and
 * PostgreSQL stores) cut to what the link mix reads — linktable with a
 * (id1, link_type, visibility, time DESC) index for GET_LINKS_LIST and
 * counttable kept by the writes in the same transaction. Ids are text (the
 * bench's vertex ids), not LinkBench's bigints; no `version` columns.
 */

/** The one link type the bench uses (LinkBench's link_type is a number). */
export const LINK_TYPE = 1;
/** Visibility values of LinkBench: VISIBILITY_HIDDEN 0, VISIBILITY_DEFAULT 1. */
export const VISIBLE = 1;
export const HIDDEN = 0;

export const POSTGRES_DDL = [
  `CREATE TABLE linktable (
     id1 text NOT NULL, link_type bigint NOT NULL, id2 text NOT NULL,
     visibility smallint NOT NULL, data bytea NOT NULL, time bigint NOT NULL,
     PRIMARY KEY (id1, link_type, id2))`,
  // id2 last so equal times come out in one order on every system (peer ascending, as the raw anchor's clustering)
  `CREATE INDEX linktable_list ON linktable (id1, link_type, visibility, time DESC, id2)`,
  `CREATE TABLE counttable (id text NOT NULL, link_type bigint NOT NULL, count bigint NOT NULL, time bigint NOT NULL, PRIMARY KEY (id, link_type))`,
] as const;

/** A prepared statement: node-postgres prepares a named one once per connection. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

const statement = (name: string, text: string): Statement => ({ name, text: text.replace(/\s+/g, ' ').trim() });

export const PG = {
  page: statement('lb_page', `SELECT id2, time, data FROM linktable WHERE id1 = $1 AND link_type = $2 AND visibility = ${VISIBLE} ORDER BY time DESC, id2 LIMIT $3`),
  multiget: statement('lb_multiget', `SELECT id2, time, data, visibility FROM linktable WHERE id1 = $1 AND link_type = $2 AND id2 = ANY($3::text[])`),
  count: statement('lb_count', `SELECT count FROM counttable WHERE id = $1 AND link_type = $2`),
  /** The write transactions' first step: the link's state, its row locked until commit. */
  lockLink: statement('lb_lock_link', `SELECT visibility FROM linktable WHERE id1 = $1 AND link_type = $2 AND id2 = $3 FOR UPDATE`),
  /** No row when a concurrent transaction inserted the link first: the writer then locks and updates it. */
  insertLink: statement('lb_insert_link', `INSERT INTO linktable (id1, link_type, id2, visibility, data, time) VALUES ($1, $2, $3, ${VISIBLE}, $4, $5) ON CONFLICT DO NOTHING RETURNING 1`),
  updateLink: statement('lb_update_link', `UPDATE linktable SET visibility = ${VISIBLE}, data = $4, time = $5 WHERE id1 = $1 AND link_type = $2 AND id2 = $3`),
  hideLink: statement('lb_hide_link', `UPDATE linktable SET visibility = ${HIDDEN} WHERE id1 = $1 AND link_type = $2 AND id2 = $3`),
  addCount: statement('lb_add_count', `INSERT INTO counttable (id, link_type, count, time) VALUES ($1, $2, $3, $4) ON CONFLICT (id, link_type) DO UPDATE SET count = counttable.count + EXCLUDED.count, time = EXCLUDED.time`),
  /** Bulk load: one statement per batch, each column an array (unnest), links and their counts in one transaction. */
  loadLinks: statement('lb_load_links', `INSERT INTO linktable (id1, link_type, id2, visibility, data, time) SELECT s, $1::bigint, d, ${VISIBLE}, b, t FROM unnest($2::text[], $3::text[], $4::bytea[], $5::bigint[]) AS x (s, d, b, t)`),
  loadCounts: statement('lb_load_counts', `INSERT INTO counttable (id, link_type, count, time) SELECT s, $1::bigint, n, $3::bigint FROM unnest($2::text[], $4::bigint[]) AS x (s, n) ON CONFLICT (id, link_type) DO UPDATE SET count = counttable.count + EXCLUDED.count`),
} as const;

/** What a write transaction does after reading the link (LinkBench's addLink/updateLink and deleteLink with expunge = false). */
export type WritePlan = { readonly write: 'insert' | 'update' | 'hide' | 'none'; readonly countDelta: -1 | 0 | 1 };

/** ADD/UPDATE: insert a missing link, else overwrite it visible; the count moves when it was not visible. DELETE: hide a visible link, count −1. */
export function planWrite(kind: 'upsert' | 'hide', old: { readonly visibility: number } | undefined): WritePlan {
  const wasVisible = old?.visibility === VISIBLE;
  if (kind === 'hide') return wasVisible ? { write: 'hide', countDelta: -1 } : { write: 'none', countDelta: 0 };
  return { write: old ? 'update' : 'insert', countDelta: wasVisible ? 0 : 1 };
}

/** The parameters of one bulk-load batch: its links as column arrays, and per source the number of links the batch adds. */
export function loadBatchParams(links: readonly GraphLink[], loadTime: bigint): { links: unknown[]; counts: unknown[] } {
  const perSource = new Map<string, number>();
  for (const l of links) perSource.set(l.src, (perSource.get(l.src) ?? 0) + 1);
  return {
    links: [LINK_TYPE, links.map((l) => l.src), links.map((l) => l.dst), links.map((l) => l.data), links.map((l) => l.time.toString())],
    counts: [LINK_TYPE, [...perSource.keys()], loadTime.toString(), [...perSource.values()]],
  };
}

/** A linktable row as the answer check compares it (bigint time: int8 is parsed to bigint by the target's pool). */
export const linkRow = (r: { id2: string; time: bigint; data: Buffer }): LinkRow => ({ dst: r.id2, time: r.time, data: base64(r.data) });
export const pointLink = (r: { id2: string; time: bigint; data: Buffer; visibility: number }): PointLink => ({ ...linkRow(r), visible: r.visibility === VISIBLE });
