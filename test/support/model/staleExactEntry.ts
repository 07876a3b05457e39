import { exactRecentLink, LinkState, type LinkValue } from '../../../sinks/namespaces/index.ts';

/**
 * Why an exact `*_recent` entry at edge time `time` is wrong given its link,
 * or undefined when it is right (or not exact). Readers trust exact entries
 * without reading the link, so one that outlived its link would be served:
 * the model readers turn such an entry into a line no model produces.
 */
export function staleExactEntry(entryValue: Uint8Array, link: LinkValue | undefined, time: bigint): string | undefined {
  const exact = exactRecentLink(entryValue);
  if (exact === undefined) return undefined;
  if (link?.state !== LinkState.ACTIVE || link.time !== time) return `stale exact entry at ${time}: link is ${link === undefined ? 'absent' : `${link.state} at ${link.time}`}`;
  const same = exact.time === link.time && exact.mutationId === link.mutationId && Buffer.compare(Buffer.from(exact.data ?? []), Buffer.from(link.data ?? [])) === 0;
  return same ? undefined : `exact entry at ${time} carries ${exact.mutationId}, the link ${link.mutationId}`;
}
