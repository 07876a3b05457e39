import {
  edgePropsId,
  edgePropsNamespace,
  encodePropertyNameKey,
  encodePropertyValue,
} from '../../sinks/namespaces/index.ts';
import { compareBytes } from '../../sinks/store/compareBytes.ts';
import type { KeyValue } from '../../sinks/store/TwoLevelMapStore.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { WriteBatch } from './WriteBatch.ts';

/**
 * SET_PROPERTIES: one `T_props` cell per property, no read of the bag.
 * REMOVE_PROPERTIES: a tombstone per named key; no keys clears the whole bag
 * (a partition tombstone at event_time: properties set later survive).
 * Neither consults node tombstones (see fanOutReads).
 */
export function propertyOpWrites(event: EdgeMutation, batch: WriteBatch): void {
  const namespace = edgePropsNamespace(event.edge_type);
  const id = edgePropsId(event.src, event.dst);
  const time = event.event_time;
  if (event.op === EdgeOp.SET_PROPERTIES) {
    for (const { key, value } of propertyAdditions(event.properties)) batch.put(namespace, id, time, key, value);
  } else if (event.property_keys.length === 0) {
    batch.clear(namespace, id, time);
  } else {
    for (const key of sortedUniqueKeys(event.property_keys.map(encodePropertyNameKey))) batch.delete(namespace, id, time, key);
  }
}

/** One cell per property, ordered by name bytes so the output never depends on map order. */
export function propertyAdditions(properties: EdgeMutation['properties']): KeyValue[] {
  return Object.entries(properties)
    .map(([name, value]) => ({ key: encodePropertyNameKey(name), value: encodePropertyValue(value) }))
    .sort((a, b) => compareBytes(a.key, b.key));
}

function sortedUniqueKeys(keys: Uint8Array[]): Uint8Array[] {
  return keys.sort(compareBytes).filter((k, i, all) => i === 0 || compareBytes(k, all[i - 1] as Uint8Array) !== 0);
}
