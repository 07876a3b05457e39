import { READ_BOUND_MAX, type EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import { textProblem } from '../schemas/validation/textRules.ts';
import { MAX_TIME, type LinkDirection } from '../sinks/namespaces/index.ts';
import type { NeighbourOrder, ReadBounds, TraversalHop } from './EdgeReader.ts';
import type { ReadBudgetLimits } from './readBudget.ts';
import { ReadArgumentError } from './ReadArgumentError.ts';

/**
 * Argument checks of the EdgeReader, each throwing ReadArgumentError naming
 * the argument. Ids follow the write path's rules (schemas/validation
 * textRules), so a read can never address a partition no write could create.
 */
export const MAX_PAGE_LIMIT = 5_000;
/** A time-range page may be larger: one slice and one multi-key read serve it (reads/README.md). */
export const MAX_RANGE_LIMIT = 10_000;
/** Edges of one multi-get: one `getKeys` of the source's link partition. */
export const MAX_EDGES_PER_GET = 128;
export const MAX_PROPERTY_KEYS = 1_000;
export const MAX_HOPS = 8;
export const MAX_PER_HOP_CAP = 100_000;
export const MAX_TRAVERSAL_CONCURRENCY = 256;
export const MAX_TRAVERSAL_IN_FLIGHT = 1_024;

export type ReadLimits = Pick<EdgestreamConfig, 'edgeTypes' | 'limits' | 'reads'>;

export function checkEdgeType(config: ReadLimits, type: unknown, argument = 'type'): string {
  if (typeof type !== 'string') throw new ReadArgumentError(argument, `must be a string, got ${typeof type}`);
  if (!config.edgeTypes.some((t) => t.name === type)) {
    throw new ReadArgumentError(argument, `unknown edge type '${type}' (configured: ${config.edgeTypes.map((t) => t.name).join(', ')})`);
  }
  return type;
}

export function checkVertex(config: ReadLimits, vertex: unknown, argument: string): string {
  if (typeof vertex !== 'string') throw new ReadArgumentError(argument, `must be a string, got ${typeof vertex}`);
  const problem = textProblem(vertex, config.limits.maxVertexIdBytes);
  if (problem !== undefined) throw new ReadArgumentError(argument, problem);
  return vertex;
}

export function checkInteger(value: unknown, argument: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ReadArgumentError(argument, `must be an integer in [${min}, ${max}], got ${String(value)}`);
  }
  return value;
}

export function checkDirection(direction: unknown, argument = 'direction'): LinkDirection {
  if (direction !== 'out' && direction !== 'in') throw new ReadArgumentError(argument, `must be 'out' or 'in', got ${JSON.stringify(direction)}`);
  return direction;
}

export function checkOrder(order: unknown): NeighbourOrder {
  if (order !== 'newest' && order !== 'peer') throw new ReadArgumentError('order', `must be 'newest' or 'peer', got ${JSON.stringify(order)}`);
  return order;
}

/** Property names to read, duplicates dropped (the result is keyed by name anyway). */
export function checkPropertyKeys(config: ReadLimits, keys: unknown): string[] {
  if (!Array.isArray(keys)) throw new ReadArgumentError('keys', 'must be an array of property names');
  if (keys.length === 0) throw new ReadArgumentError('keys', 'must name at least one property (leave it out to read the whole bag)');
  if (keys.length > MAX_PROPERTY_KEYS) throw new ReadArgumentError('keys', `names ${keys.length} properties, more than the ${MAX_PROPERTY_KEYS} allowed`);
  keys.forEach((k: unknown, i) => {
    if (typeof k !== 'string') throw new ReadArgumentError(`keys[${i}]`, `must be a string, got ${typeof k}`);
    const problem = textProblem(k, config.limits.maxPropertyNameBytes);
    if (problem !== undefined) throw new ReadArgumentError(`keys[${i}]`, problem);
  });
  return [...new Set(keys as string[])];
}

/** A call's read bounds over the config's defaults, each within READ_BOUND_MAX. */
export function checkReadBounds(config: ReadLimits, options: ReadBounds): ReadBudgetLimits {
  const { reads } = config;
  const signal: unknown = options.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new ReadArgumentError('signal', 'must be an AbortSignal');
  return {
    maxRows: checkInteger(options.maxRows ?? reads.maxRows, 'maxRows', 1, READ_BOUND_MAX.maxRows),
    maxQueries: checkInteger(options.maxQueries ?? reads.maxQueries, 'maxQueries', 1, READ_BOUND_MAX.maxQueries),
    deadlineMs: checkInteger(options.deadlineMs ?? reads.deadlineMs, 'deadlineMs', 1, READ_BOUND_MAX.deadlineMs),
    ...(signal === undefined ? {} : { signal }),
  };
}

export function checkHops(config: ReadLimits, hops: unknown): TraversalHop[] {
  if (!Array.isArray(hops) || hops.length === 0 || hops.length > MAX_HOPS) {
    throw new ReadArgumentError('hops', `must be a list of 1 to ${MAX_HOPS} hops, got ${Array.isArray(hops) ? hops.length : typeof hops}`);
  }
  return hops.map((hop: unknown, i) => {
    if (typeof hop !== 'object' || hop === null) throw new ReadArgumentError(`hops[${i}]`, 'must be { type, direction }');
    const { type, direction, cap } = hop as Partial<TraversalHop>;
    return {
      type: checkEdgeType(config, type, `hops[${i}].type`),
      direction: checkDirection(direction, `hops[${i}].direction`),
      ...(cap === undefined ? {} : { cap: checkInteger(cap, `hops[${i}].cap`, 1, MAX_PER_HOP_CAP) }),
    };
  });
}

/** An edge time bound in µs: a bigint in [0, max] (`high` may be MAX_TIME + 1, an open end). */
export function checkTime(value: unknown, argument: string, max = MAX_TIME): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > max) throw new ReadArgumentError(argument, `must be a time in µs, an integer in [0, ${max}], got ${String(value)}`);
  return value;
}

/** The destination vertices of a multi-get, duplicates dropped, in the order asked. */
export function checkDsts(config: ReadLimits, dsts: unknown): string[] {
  if (!Array.isArray(dsts) || dsts.length === 0 || dsts.length > MAX_EDGES_PER_GET) {
    throw new ReadArgumentError('dsts', `must be a list of 1 to ${MAX_EDGES_PER_GET} vertices, got ${Array.isArray(dsts) ? dsts.length : typeof dsts}`);
  }
  return [...new Set(dsts.map((dst: unknown, i) => checkVertex(config, dst, `dsts[${i}]`)))];
}
