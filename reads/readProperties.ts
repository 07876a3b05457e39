import { decodePropertyNameKey, decodePropertyValue, edgePropsId, edgePropsNamespace, encodePropertyNameKey, type PropertyValue } from '../sinks/namespaces/index.ts';
import type { BoundedTtlCache } from '../sinks/caches/createBoundedTtlCache.ts';
import { getKeys, sampleOf, type ReadContext } from './ReadContext.ts';

/**
 * Key pushdown: only the requested properties cross the wire, each served
 * from `cache` while fresh. Misses are read in one multi-key request
 * (`getKeys`) and counted as one sample against the bag.
 */
export async function readRequestedProperties(
  ctx: ReadContext,
  cache: BoundedTtlCache<Uint8Array | undefined>,
  type: string,
  src: string,
  dst: string,
  names: readonly string[],
): Promise<Record<string, PropertyValue>> {
  const namespace = edgePropsNamespace(type);
  const id = edgePropsId(src, dst);
  const cacheKey = (name: string) => `${namespace}\u0000${id}\u0000${name}`;
  const found = new Map<string, Uint8Array | undefined>();
  const misses: string[] = [];
  for (const name of names) {
    const hit = cache.get(cacheKey(name));
    if (hit === undefined) misses.push(name);
    else found.set(name, hit.value);
  }
  if (misses.length > 0) {
    const cells = await getKeys(ctx, namespace, id, misses.map(encodePropertyNameKey));
    ctx.counters.record(namespace, id, sampleOf(cells, cells.filter((c) => c !== undefined).length));
    misses.forEach((name, i) => {
      const value = cells[i]?.value;
      cache.set(cacheKey(name), value === undefined ? undefined : Uint8Array.from(value));
      found.set(name, value);
    });
  }
  const result: [string, PropertyValue][] = [];
  for (const name of names) {
    const value = found.get(name);
    if (value !== undefined) result.push([name, decodePropertyValue(value)]);
  }
  return Object.fromEntries(result);
}

/** The whole bag `T_props[edgePropsId(src, dst)]`, paged; never cached (a bag has no bounded key set to invalidate). */
export async function readPropertyBag(ctx: ReadContext, type: string, src: string, dst: string): Promise<Record<string, PropertyValue>> {
  const namespace = edgePropsNamespace(type);
  const id = edgePropsId(src, dst);
  const result: [string, PropertyValue][] = [];
  let after: Uint8Array | undefined;
  for (;;) {
    const page = await ctx.partitions.page(namespace, id, { limit: ctx.maxPageCells, ...(after === undefined ? {} : { after }) });
    ctx.counters.record(namespace, id, sampleOf(page.cells, page.cells.length));
    for (const cell of page.cells) result.push([decodePropertyNameKey(cell.key), decodePropertyValue(cell.value)]);
    if (page.exhausted) return Object.fromEntries(result);
    if (page.cells.length === 0) throw new Error(`PartitionReader returned an empty page of ${namespace}[${id}] that is not exhausted`);
    after = page.cells[page.cells.length - 1]!.key;
  }
}
