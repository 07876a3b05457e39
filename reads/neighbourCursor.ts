import type { LinkDirection } from '../sinks/namespaces/index.ts';
import type { NeighbourOrder } from './EdgeReader.ts';
import { ReadArgumentError } from './ReadArgumentError.ts';

/**
 * Where a neighbour page stopped: the query it belongs to and the last raw key
 * scanned. A key, never a backend page state, so the cursor stays valid across
 * backends, restarts and a partition becoming split between two pages
 * (the PartitionReader continues strictly after it). Encoded as base64url of a
 * small versioned JSON document; callers treat it as opaque.
 */
export interface NeighbourCursor {
  readonly order: NeighbourOrder;
  readonly direction: LinkDirection;
  readonly type: string;
  readonly vertex: string;
  /** The last key scanned (of `T_<dir>_recent` for `newest`, of `T_<dir>` for `peer`). */
  readonly after: Uint8Array;
}

const VERSION = 1;

interface CursorDocument {
  readonly v: number;
  readonly o: NeighbourOrder;
  readonly d: LinkDirection;
  readonly t: string;
  readonly x: string;
  /** `after`, hex. */
  readonly k: string;
}

export function encodeNeighbourCursor(c: NeighbourCursor): string {
  const doc: CursorDocument = { v: VERSION, o: c.order, d: c.direction, t: c.type, x: c.vertex, k: Buffer.from(c.after).toString('hex') };
  return Buffer.from(JSON.stringify(doc), 'utf8').toString('base64url');
}

/** How large a cursor may be: its text, and the key it carries. */
export interface CursorBounds {
  /** Characters of the opaque text (the config's `reads.maxCursorBytes`). */
  readonly maxCursorBytes: number;
  /** The largest key a page can end on (a `*_recent` key: 8-byte time + the longest vertex id). */
  readonly maxKeyBytes: number;
}

const DOC_FIELDS = ['v', 'o', 'd', 't', 'x', 'k'].sort().join();

/**
 * The cursor `text` stands for, or a ReadArgumentError naming `cursor`. The
 * text is checked for size before it is decoded, and only a document this
 * encoder could have written is accepted (exactly its fields, canonical
 * base64url, a non-empty key within bounds), so a damaged or hand-made
 * cursor cannot smuggle in a huge key or extra payload.
 */
export function decodeNeighbourCursor(text: unknown, bounds: CursorBounds): NeighbourCursor {
  const invalid = () => new ReadArgumentError('cursor', 'is not a cursor returned by a neighbour page (damaged or from another API)');
  if (typeof text !== 'string' || text.length === 0) throw invalid();
  if (text.length > bounds.maxCursorBytes) throw new ReadArgumentError('cursor', `is ${text.length} characters long, more than the ${bounds.maxCursorBytes} allowed`);
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) throw invalid();
  let doc: Partial<CursorDocument>;
  try {
    doc = JSON.parse(bytes.toString('utf8')) as Partial<CursorDocument>;
  } catch {
    throw invalid();
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw invalid();
  if (doc.v !== VERSION) throw new ReadArgumentError('cursor', `has version ${String(doc.v)}, this reader understands ${VERSION}`);
  if (Object.keys(doc).sort().join() !== DOC_FIELDS) throw invalid();
  const { o, d, t, x, k } = doc;
  if ((o !== 'newest' && o !== 'peer') || (d !== 'out' && d !== 'in') || typeof t !== 'string' || typeof x !== 'string') throw invalid();
  if (typeof k !== 'string' || k.length === 0 || !/^(?:[0-9a-f]{2})+$/.test(k)) throw invalid();
  if (k.length / 2 > bounds.maxKeyBytes) throw new ReadArgumentError('cursor', `holds a ${k.length / 2}-byte key, more than the ${bounds.maxKeyBytes} allowed`);
  return { order: o, direction: d, type: t, vertex: x, after: new Uint8Array(Buffer.from(k, 'hex')) };
}

/** Throws unless `cursor` was made by the same query (direction, type, vertex, order). */
export function checkCursorBelongs(cursor: NeighbourCursor, query: Omit<NeighbourCursor, 'after'>): void {
  const describe = (q: Omit<NeighbourCursor, 'after'>) => `${q.type} ${q.direction}-neighbours of ${JSON.stringify(q.vertex)} in ${q.order} order`;
  const same = cursor.direction === query.direction && cursor.type === query.type && cursor.vertex === query.vertex && cursor.order === query.order;
  if (!same) throw new ReadArgumentError('cursor', `belongs to another query (${describe(cursor)}), not ${describe(query)}`);
}
