/**
 * The namespaces of one edge type (docs/architecture.md §5). Edge types are
 * validated identifiers (schemas/config EDGE_TYPE_PATTERN, at most 30
 * characters), so every name here is a valid namespace name, at most 41
 * characters; no suffix below ends with another, so two edge types can never
 * produce the same name.
 */
export type LinkDirection = 'out' | 'in';

/** `T_out`: partition src, key dst, value LinkValue. */
export const forwardLinkNamespace = (edgeType: string): string => `${edgeType}_out`;
/** `T_in`: partition dst, key src, value LinkValue. */
export const reverseLinkNamespace = (edgeType: string): string => `${edgeType}_in`;
/** `T_out_recent`: partition src, key invTime(time) ‖ dst, value mutation id. */
export const forwardRecentNamespace = (edgeType: string): string => `${edgeType}_out_recent`;
/** `T_in_recent`: partition dst, key invTime(time) ‖ src, value mutation id. */
export const reverseRecentNamespace = (edgeType: string): string => `${edgeType}_in_recent`;
/** `T_props`: partition edgePropsId(a, b), key 0x00 ‖ direction ‖ property name (edgePropertyBag), value typed property value. */
export const edgePropsNamespace = (edgeType: string): string => `${edgeType}_props`;

/** The link namespace holding `vertex`'s links in `direction` (`out`: vertex is the src). */
export const linkNamespace = (edgeType: string, direction: LinkDirection): string =>
  direction === 'out' ? forwardLinkNamespace(edgeType) : reverseLinkNamespace(edgeType);

/** The newest-first index of `vertex`'s links in `direction`. */
export const recentNamespace = (edgeType: string, direction: LinkDirection): string =>
  direction === 'out' ? forwardRecentNamespace(edgeType) : reverseRecentNamespace(edgeType);

/** The link namespace a `*_recent` index is derived from (`follows_in_recent` → `follows_in`), or undefined for any other namespace. */
export const indexedLinkNamespace = (namespace: string): string | undefined =>
  namespace.endsWith('_out_recent') || namespace.endsWith('_in_recent') ? namespace.slice(0, -'_recent'.length) : undefined;
