import { createHash } from 'node:crypto';

export type CascadeEventKind = 'edge' | 'props';

/**
 * The mutation id of one cascaded event: `<node mutation id>/<type>/<out|in>/<edge|props>/<peer>`.
 * Derived only from the REMOVE_NODE and the link, so a replayed cascade
 * publishes identical events. The peer goes last: every other part except the
 * node's own id is free of '/', so two links of one removal never share an id.
 *
 * Cascaded events pass validation like any other, and this id can exceed
 * `limits.maxMutationIdBytes` (the node id and the peer may each be near
 * their limits); such an id is replaced by the base64url SHA-256 of the
 * readable form, cut to the limit, so it stays deterministic and valid.
 */
export function cascadeMutationId(
  nodeMutationId: string,
  edgeType: string,
  direction: 'out' | 'in',
  kind: CascadeEventKind,
  peer: string,
  maxMutationIdBytes: number,
): string {
  const readable = `${nodeMutationId}/${edgeType}/${direction}/${kind}/${peer}`;
  if (Buffer.byteLength(readable, 'utf8') <= maxMutationIdBytes) return readable;
  return createHash('sha256').update(readable, 'utf8').digest('base64url').slice(0, maxMutationIdBytes);
}
