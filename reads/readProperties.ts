import {
  decodeBagPropertyKey,
  decodePropertyValue,
  encodeBagPropertyKey,
  isBagKey,
  keyBeforeBag,
  type EdgePropertyBag,
  type PropertyValue,
} from '../sinks/namespaces/index.ts';
import type { BoundedTtlCache } from '../sinks/caches/createBoundedTtlCache.ts';
import { getKeys, sampleOf, type ReadContext } from './ReadContext.ts';

/**
 * Key pushdown: only the requested properties cross the wire, each served
 * from `cache` while fresh. Misses are read in one multi-key request
 * (`getKeys`) and counted as one sample against the bag. `fresh` reads every
 * name from the store (a read that must see a write the cache may predate)
 * and refreshes the cache with what it read.
 */
export async function readRequestedProperties(
  ctx: ReadContext,
  cache: BoundedTtlCache<Uint8Array | undefined>,
  bag: EdgePropertyBag,
  names: readonly string[],
  fresh = false,
): Promise<Record<string, PropertyValue>> {
  const { namespace, id } = bag;
  const cacheKey = (name: string) => `${namespace}\u0000${id}\u0000${bag.prefix.join('.')}\u0000${name}`;
  const found = new Map<string, Uint8Array | undefined>();
  const misses: string[] = [];
  for (const name of names) {
    const hit = fresh ? undefined : cache.get(cacheKey(name));
    if (hit === undefined) misses.push(name);
    else found.set(name, hit.value);
  }
  if (!fresh) ctx.observer.propertyCache(names.length, names.length - misses.length); // a fresh read looked nothing up
  if (misses.length > 0) {
    const cells = await getKeys(ctx, namespace, id, misses.map((name) => encodeBagPropertyKey(bag, name)));
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

/**
 * The whole bag: its key range of the vertex pair's partition, paged from just
 * below the bag's prefix until a key leaves it (the last page may read up to a
 * page of the next direction's cells); never cached (a bag has no bounded key
 * set to invalidate).
 */
export async function readPropertyBag(ctx: ReadContext, bag: EdgePropertyBag): Promise<Record<string, PropertyValue>> {
  const { namespace, id } = bag;
  const result: [string, PropertyValue][] = [];
  let after = keyBeforeBag(bag);
  for (;;) {
    const page = await ctx.partitions.page(namespace, id, { limit: ctx.maxPageCells, after });
    ctx.counters.record(namespace, id, sampleOf(page.cells, page.cells.length));
    for (const cell of page.cells) {
      if (!isBagKey(bag, cell.key)) return Object.fromEntries(result);
      result.push([decodeBagPropertyKey(cell.key).name, decodePropertyValue(cell.value)]);
    }
    if (page.exhausted) return Object.fromEntries(result);
    if (page.cells.length === 0) throw new Error(`PartitionReader returned an empty page of ${namespace}[${id}] that is not exhausted`);
    after = page.cells[page.cells.length - 1]!.key;
  }
}
