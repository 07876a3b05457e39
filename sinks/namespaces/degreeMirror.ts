import type { LinkDirection } from './edgeTypeNamespaces.ts';
import { fnv1a32 } from './fnv1a32.ts';
import { encodeUtf8 } from './utf8Text.ts';

/**
 * `degree_mirror[vertex]`, the delta recounter's copy of a link partition
 * (docs/architecture.md §5 "Counts"), keys per (type, direction):
 * - `type ␀ dir ␀ f ␀ bucket ␀ peer` = the link cell's value, written at the link's write time (a flag);
 * - `type ␀ dir ␀ b ␀ group ␀ bucket` = u64 BE count of ACTIVE flags in the bucket;
 * - `type ␀ dir ␀ g ␀ group` = u64 BE sum of the group's bucket counts;
 * - `type ␀ dir ␀ m` = empty: the whole link partition was once copied (the marker).
 * `bucket` = fnv1a32(peer) mod 1024 (three hex digits), `group` = bucket / 32 (two hex digits): a bucket of
 * a 1M-link vertex holds ~1 000 flags, a group 32 bucket counts, and the count sums 32 group counts.
 */
export const DEGREE_MIRROR_BUCKETS = 1024;
const CODEC = 'degreeMirrorKey';
const S = '\u0000';

const head = (edgeType: string, direction: LinkDirection) => `${edgeType}${S}${direction}${S}`;
const GROUP_SIZE = 32;
const bucketNumber = (peer: Uint8Array) => fnv1a32(peer) % DEGREE_MIRROR_BUCKETS;
const bucketOfPeer = (peer: Uint8Array) => bucketNumber(peer).toString(16).padStart(3, '0');
const groupOfPeer = (peer: Uint8Array) => Math.floor(bucketNumber(peer) / GROUP_SIZE).toString(16).padStart(2, '0');
const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/** The flag of `peer` (the link key, UTF-8). */
export function encodeDegreeFlagKey(edgeType: string, direction: LinkDirection, peer: Uint8Array): Uint8Array {
  return concat(degreeFlagsPrefix(edgeType, direction, peer), peer);
}

/** The prefix of the flags in `peer`'s bucket. */
export function degreeFlagsPrefix(edgeType: string, direction: LinkDirection, peer: Uint8Array): Uint8Array {
  return encodeUtf8(`${head(edgeType, direction)}f${S}${bucketOfPeer(peer)}${S}`, CODEC);
}

/** The count cell of `peer`'s bucket. */
export function encodeDegreeBucketKey(edgeType: string, direction: LinkDirection, peer: Uint8Array): Uint8Array {
  return encodeUtf8(`${head(edgeType, direction)}b${S}${groupOfPeer(peer)}${S}${bucketOfPeer(peer)}`, CODEC);
}

/** The prefix of the bucket counts in `peer`'s group. */
export function degreeGroupBucketsPrefix(edgeType: string, direction: LinkDirection, peer: Uint8Array): Uint8Array {
  return encodeUtf8(`${head(edgeType, direction)}b${S}${groupOfPeer(peer)}${S}`, CODEC);
}

/** The count cell of `peer`'s group (the sum of its bucket counts). */
export function encodeDegreeGroupKey(edgeType: string, direction: LinkDirection, peer: Uint8Array): Uint8Array {
  return encodeUtf8(`${head(edgeType, direction)}g${S}${groupOfPeer(peer)}`, CODEC);
}

/** The prefix of every group count of (type, direction). */
export function degreeGroupsPrefix(edgeType: string, direction: LinkDirection): Uint8Array {
  return encodeUtf8(`${head(edgeType, direction)}g${S}`, CODEC);
}

export function encodeDegreeMirrorMarkerKey(edgeType: string, direction: LinkDirection): Uint8Array {
  return encodeUtf8(`${head(edgeType, direction)}m`, CODEC);
}
