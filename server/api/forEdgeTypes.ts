import { edgeTypeParam, hopParam } from './apiSchemas.ts';

/**
 * A schema of the API for the edge types a config declares: every edge-type parameter and body
 * field becomes an enum of them, every traversal hop one of `<type>:out|in`. The routes validate
 * with the result (an undeclared type is a 400 naming the parameter and the valid ones) and the
 * OpenAPI document publishes it, so a client can read what is valid. The shared schema objects of
 * apiSchemas.ts are found by identity; everything else is copied as it is.
 */
export function forEdgeTypes<T>(schema: T, edgeTypes: readonly string[]): T {
  const replacements = new Map<unknown, object>([
    [edgeTypeParam, { type: 'string', description: edgeTypeParam.description, enum: [...edgeTypes] }],
    [hopParam, { type: 'string', enum: edgeTypes.flatMap((t) => [`${t}:out`, `${t}:in`]) }],
  ]);
  const walk = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const replaced = replacements.get(value);
    if (replaced) return replaced;
    if (Array.isArray(value)) return value.map(walk);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  };
  return walk(schema) as T;
}
