import { edgePropsNamespace } from './edgeTypeNamespaces.ts';
import { EDGE_ID_SEPARATOR, edgePropsId } from './edgePropsId.ts';
import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { decodePropertyNameKey, encodePropertyNameKey } from './propertyNameKey.ts';

/**
 * Which bag of a vertex pair's `T_props` partition a cell belongs to. The
 * partition `min(a,b) ␀ max(a,b)` is found from either endpoint; inside it,
 * each direction of a directed type has its own bag, so mutual follows never
 * share or clear each other's properties. A symmetric type (config
 * `edgeTypes[].symmetric`) has one bag for both directions.
 */
export const BagDirection = {
  /** The edge runs from the partition id's first vertex to its second (src = min, self-loops too). */
  FORWARD: 0x01,
  /** The edge runs from the second vertex to the first (src = max). */
  BACKWARD: 0x02,
  /** A symmetric type: one bag for a→b and b→a. */
  SYMMETRIC: 0x03,
} as const;
export type BagDirection = (typeof BagDirection)[keyof typeof BagDirection];

/**
 * Keys are `0x00 ‖ direction ‖ property name (UTF-8)`. Property names never
 * contain U+0000, so no key of the old layout (a bare name) starts with 0x00:
 * old rows are disjoint from every bag and invisible to it (docs/architecture.md §5).
 */
export const BAG_KEY_MARKER = 0x00;

/** One edge's property bag: its partition and the key prefix of its direction. */
export interface EdgePropertyBag {
  readonly namespace: string;
  readonly id: string;
  /** `0x00 ‖ direction`: every key of the bag starts with it, and a bag clear is a range delete of it. */
  readonly prefix: Uint8Array;
}

export function edgePropertyBag(edgeType: string, src: string, dst: string, symmetric: boolean): EdgePropertyBag {
  const id = edgePropsId(src, dst);
  const direction = symmetric ? BagDirection.SYMMETRIC : id.startsWith(`${src}${EDGE_ID_SEPARATOR}`) ? BagDirection.FORWARD : BagDirection.BACKWARD;
  return { namespace: edgePropsNamespace(edgeType), id, prefix: Uint8Array.of(BAG_KEY_MARKER, direction) };
}

/** The cell key of property `name` in `bag`. */
export function encodeBagPropertyKey(bag: EdgePropertyBag, name: string): Uint8Array {
  const nameBytes = encodePropertyNameKey(name);
  const key = new Uint8Array(bag.prefix.length + nameBytes.length);
  key.set(bag.prefix);
  key.set(nameBytes, bag.prefix.length);
  return key;
}

/** The direction and property name of a `T_props` cell key; throws on a key of another layout. */
export function decodeBagPropertyKey(key: Uint8Array): { readonly direction: BagDirection; readonly name: string } {
  const direction = key[1];
  if (key.length < 2 || key[0] !== BAG_KEY_MARKER || (direction !== BagDirection.FORWARD && direction !== BagDirection.BACKWARD && direction !== BagDirection.SYMMETRIC)) {
    throw new NamespaceCodecError('bagPropertyKey', `not a property bag key (expected 0x00 and a direction byte 1..3, got ${Buffer.from(key.subarray(0, 2)).toString('hex')})`);
  }
  return { direction, name: decodePropertyNameKey(key.subarray(2)) };
}

/**
 * A key just below every key of `bag`, for readers that page by "keys after
 * k": `0x00 ‖ direction-1 ‖ 0xff`. The previous direction's keys end in a
 * UTF-8 name, whose first byte is never 0xff, so they all sort below it.
 */
export function keyBeforeBag(bag: EdgePropertyBag): Uint8Array {
  return Uint8Array.of(BAG_KEY_MARKER, (bag.prefix[1] as number) - 1, 0xff);
}

/** Whether `key` belongs to `bag`. */
export function isBagKey(bag: EdgePropertyBag, key: Uint8Array): boolean {
  return key.length >= bag.prefix.length && bag.prefix.every((byte, i) => key[i] === byte);
}
