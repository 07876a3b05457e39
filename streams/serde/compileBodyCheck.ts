import type avro from 'avsc';
import { DecodeError, type DecodeErrorCode } from './DecodeError.ts';

/** Array items of a type that may encode in 0 bytes (null, an empty record) one record may declare in total. */
export const MAX_ZERO_BYTE_ITEMS = 65_536;
/** Records nested deeper than this (recursive schemas) are refused: avsc decodes by recursion. */
export const MAX_NESTING = 256;

/** Throws DecodeError BAD_LENGTH or BAD_PAYLOAD unless `body` is exactly one well-bounded value. */
export type BodyCheck = (body: Buffer, schemaId: number) => void;

interface Cursor {
  readonly buf: Buffer;
  pos: number;
  readonly schemaId: number;
  zeroByteItems: number;
  depth: number;
}

type Walk = (c: Cursor) => void;

/**
 * Compiles a walk over Avro binary written with `writer` that reads only the
 * lengths, counts and indexes and checks each against the bytes actually
 * left BEFORE looping or allocating: a string/bytes length never exceeds the
 * remaining bytes, an array/map block count never exceeds remaining bytes
 * divided by the smallest encoding of one item (items that may take 0 bytes
 * count against MAX_ZERO_BYTE_ITEMS instead), a negative count's byte size is
 * within the body and equal to what its items take, varints are at most 5
 * (int) or 10 (long) bytes, union and enum indexes are in range, and nothing
 * trails. avsc loops on declared counts (Tap reads past the end as zeros), so
 * this runs first; what passes decodes in time linear in its size. The walk
 * never allocates per value. Throws (a plain Error) for a type it cannot bound.
 */
export function compileBodyCheck(writer: avro.Type): BodyCheck {
  const walk = compile(writer, '', new Map());
  return (body, schemaId) => {
    const c: Cursor = { buf: body, pos: 0, schemaId, zeroByteItems: 0, depth: 0 };
    walk(c);
    if (c.pos !== body.length) fail(c, 'BAD_PAYLOAD', '', `${body.length - c.pos} trailing bytes after the record`);
  };
}

function compile(type: avro.Type, path: string, records: Map<avro.Type, Walk>): Walk {
  switch (type.typeName) {
    case 'null':
      return () => {};
    case 'boolean':
      return (c) => need(c, 1, path);
    case 'int':
      return (c) => void readVarint(c, 5, path);
    case 'long':
    case 'abstract:long': // bigintLongType
      return (c) => void readVarint(c, 10, path);
    case 'float':
      return (c) => need(c, 4, path);
    case 'double':
      return (c) => need(c, 8, path);
    case 'string':
    case 'bytes':
      return (c) => void readLength(c, path);
    case 'fixed': {
      const { size } = type as avro.types.FixedType;
      return (c) => need(c, size, path);
    }
    case 'enum': {
      const count = (type as avro.types.EnumType).symbols.length;
      return (c) => checkIndex(c, readVarint(c, 5, path), count, path, 'enum');
    }
    case 'array': {
      const items = (type as avro.types.ArrayType).itemsType;
      return blocks(path, 'array', minBytes(items, new Set()), compile(items, `${path}[]`, records));
    }
    case 'map': {
      const values = (type as avro.types.MapType).valuesType as avro.Type;
      const key = `${path}{key}`;
      const value = compile(values, `${path}{}`, records);
      return blocks(path, 'map', 1 + minBytes(values, new Set()), (c) => {
        readLength(c, key);
        value(c);
      });
    }
    case 'record':
    case 'error':
      return record(type as avro.types.RecordType, path, records);
    default:
      if (type.typeName.startsWith('union:')) {
        const branches = (type as avro.types.UnwrappedUnionType).types.map((t) => compile(t, path, records));
        return (c) => {
          const i = readVarint(c, 5, path);
          checkIndex(c, i, branches.length, path, 'union');
          (branches[i] as Walk)(c);
        };
      }
      if (type.typeName.startsWith('logical:')) return compile((type as avro.types.LogicalType).underlyingType, path, records);
      throw new Error(`cannot bound Avro type ${type.typeName}${path ? ` at ${path}` : ''}`);
  }
}

/** A record's fields in order; a recursive reference reuses the walk being built. */
function record(type: avro.types.RecordType, path: string, records: Map<avro.Type, Walk>): Walk {
  const known = records.get(type);
  if (known) return known;
  let fields: Walk[] = [];
  const walk: Walk = (c) => {
    if (++c.depth > MAX_NESTING) fail(c, 'BAD_PAYLOAD', path, `records nested deeper than ${MAX_NESTING}`);
    for (const field of fields) field(c);
    c.depth--;
  };
  records.set(type, walk);
  fields = type.fields.map((f) => compile(f.type, path ? `${path}.${f.name}` : f.name, records));
  return walk;
}

function blocks(path: string, kind: 'array' | 'map', minItemBytes: number, item: Walk): Walk {
  const [unit, units] = kind === 'map' ? ['entry', 'entries'] : ['item', 'items'];
  return (c) => {
    for (;;) {
      let count = readVarint(c, 10, path);
      if (count === 0) return;
      let size = -1;
      if (count < 0) {
        count = -count;
        size = readVarint(c, 10, path);
        if (size < 0 || size > remaining(c)) {
          fail(c, 'BAD_LENGTH', path, `${kind} block of ${declared(count)} ${units} declares a size of ${declared(size)} bytes, but ${remaining(c)} remain`);
        }
      }
      const blockStart = c.pos;
      if (minItemBytes > 0) {
        if (count > remaining(c) / minItemBytes) {
          fail(c, 'BAD_LENGTH', path, `${kind} block declares ${declared(count)} ${units}, but only ${remaining(c)} bytes remain (an ${unit} takes at least ${minItemBytes})`);
        }
      } else if ((c.zeroByteItems += count) > MAX_ZERO_BYTE_ITEMS) {
        fail(c, 'BAD_LENGTH', path, `${kind} block declares ${declared(count)} ${units} that may take 0 bytes each; a record may hold at most ${MAX_ZERO_BYTE_ITEMS}`);
      }
      for (let i = 0; i < count; i++) item(c);
      if (size >= 0 && c.pos - blockStart !== size) {
        fail(c, 'BAD_LENGTH', path, `${kind} block declares a size of ${size} bytes, but its ${units} take ${c.pos - blockStart}`);
      }
    }
  };
}

/** The fewest bytes a value of `type` can encode in (0 for null, empty records, and cycles, which need a union or array to end). */
function minBytes(type: avro.Type, visiting: Set<avro.Type>): number {
  switch (type.typeName) {
    case 'null':
      return 0;
    case 'float':
      return 4;
    case 'double':
      return 8;
    case 'fixed':
      return (type as avro.types.FixedType).size;
    case 'record':
    case 'error': {
      if (visiting.has(type)) return 0;
      visiting.add(type);
      const sum = (type as avro.types.RecordType).fields.reduce((n, f) => n + minBytes(f.type, visiting), 0);
      visiting.delete(type);
      return sum;
    }
    default:
      if (type.typeName.startsWith('logical:')) return minBytes((type as avro.types.LogicalType).underlyingType, visiting);
      return 1; // boolean, int, long, string, bytes, enum, union, array, map: at least one byte
  }
}

/** A string/bytes length: never negative, never more than what is left. */
function readLength(c: Cursor, path: string): void {
  const length = readVarint(c, 10, path);
  if (length < 0 || length > remaining(c)) {
    fail(c, 'BAD_LENGTH', path, `declares a length of ${declared(length)} bytes, but ${remaining(c)} remain`);
  }
  c.pos += length;
}

/**
 * A zigzag varint of at most `maxBytes` bytes. Exact up to 2^53; above, the
 * magnitude is approximate (such a count or length fails its bound anyway)
 * and the sign is exact (the low bit of the first byte).
 */
function readVarint(c: Cursor, maxBytes: number, path: string): number {
  const { buf } = c;
  const first = c.pos;
  let value = 0;
  let scale = 1;
  for (let i = 0; i < maxBytes; i++) {
    if (c.pos >= buf.length) fail(c, 'BAD_PAYLOAD', path, 'the body ends inside a varint');
    const b = buf[c.pos++] as number;
    value += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) {
      return ((buf[first] as number) & 1) === 1 ? -(value + 1) / 2 : value / 2;
    }
    scale *= 128;
  }
  return fail(c, 'BAD_PAYLOAD', path, `varint longer than ${maxBytes} bytes (${maxBytes === 5 ? 'int' : 'long'})`);
}

/** A declared number as read: exact up to 2^53, approximate above (readVarint). */
function declared(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : `about ${n.toExponential(2)}`;
}

function checkIndex(c: Cursor, index: number, count: number, path: string, kind: string): void {
  if (!Number.isInteger(index) || index < 0 || index >= count) fail(c, 'BAD_PAYLOAD', path, `${kind} index ${index} is outside 0..${count - 1}`);
}

function need(c: Cursor, bytes: number, path: string): void {
  if (remaining(c) < bytes) fail(c, 'BAD_PAYLOAD', path, `needs ${bytes} bytes, but ${remaining(c)} remain`);
  c.pos += bytes;
}

function remaining(c: Cursor): number {
  return c.buf.length - c.pos;
}

function fail(c: Cursor, code: DecodeErrorCode, path: string, what: string): never {
  throw new DecodeError(code, `Avro body (${c.buf.length} bytes, schema ${c.schemaId}) at ${path || '(root)'}: ${what}`, { schemaId: c.schemaId });
}
