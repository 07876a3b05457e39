import { edgePropertyBag, encodeBagPropertyKey, encodePropertyValue, type EdgePropertyBag } from '../../sinks/namespaces/index.ts';
import { compareBytes } from '../../sinks/store/compareBytes.ts';
import type { KeyValue } from '../../sinks/store/TwoLevelMapStore.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { WriteBatch } from './WriteBatch.ts';

/**
 * SET_PROPERTIES: one cell per property in the edge's bag, no read of the bag.
 * REMOVE_PROPERTIES: a tombstone per named key; no keys clears the whole bag
 * (a range tombstone over the bag's key prefix at event_time: properties set
 * later survive, older ones arriving later stay hidden, and the other
 * direction's bag of a directed type is untouched).
 * Neither consults node tombstones (see fanOutReads).
 */
export function propertyOpWrites(event: EdgeMutation, symmetric: boolean, batch: WriteBatch): void {
  const bag = edgePropertyBag(event.edge_type, event.src, event.dst, symmetric);
  const time = event.event_time;
  if (event.op === EdgeOp.SET_PROPERTIES) {
    for (const { key, value } of propertyAdditions(bag, event.properties)) batch.put(bag.namespace, bag.id, time, key, value);
  } else if (event.property_keys.length === 0) {
    batch.clear(bag.namespace, bag.id, time, bag.prefix);
  } else {
    const keys = sortedUniqueKeys(event.property_keys.map((name) => encodeBagPropertyKey(bag, name)));
    for (const key of keys) batch.delete(bag.namespace, bag.id, time, key);
  }
}

/** One cell of `bag` per property, ordered by key bytes so the output never depends on map order. */
export function propertyAdditions(bag: EdgePropertyBag, properties: EdgeMutation['properties']): KeyValue[] {
  return Object.entries(properties)
    .map(([name, value]) => ({ key: encodeBagPropertyKey(bag, name), value: encodePropertyValue(value) }))
    .sort((a, b) => compareBytes(a.key, b.key));
}

function sortedUniqueKeys(keys: Uint8Array[]): Uint8Array[] {
  return keys.sort(compareBytes).filter((k, i, all) => i === 0 || compareBytes(k, all[i - 1] as Uint8Array) !== 0);
}
