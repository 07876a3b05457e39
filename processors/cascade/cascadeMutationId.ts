import { createHash } from 'node:crypto';

/**
 * The mutation id of a cascaded bag clear: `<node mutation id>/<type>/<out|in>/<peer>`.
 * Derived only from the REMOVE_NODE and the link, so a replayed cascade
 * publishes identical events. The peer goes last and the other parts except
 * the node's own id are free of '/', so two links of one removal never share an id.
 *
 * Cascaded events pass validation like any other, and this id can exceed
 * `limits.maxMutationIdBytes` (the node's id and the peer may each be near
 * their limits); such an id is replaced by the base64url SHA-256 of the
 * readable form, cut to the limit, so it stays deterministic and valid.
 */
export function cascadeMutationId(nodeMutationId: string, edgeType: string, direction: 'out' | 'in', peer: string, maxMutationIdBytes: number): string {
  const readable = `${nodeMutationId}/${edgeType}/${direction}/${peer}`;
  if (Buffer.byteLength(readable, 'utf8') <= maxMutationIdBytes) return readable;
  return createHash('sha256').update(readable, 'utf8').digest('base64url').slice(0, maxMutationIdBytes);
}
