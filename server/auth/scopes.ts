/**
 * Who is calling and what their token lets them do. Scopes come from the JWT's
 * `scope` claim (space-separated, RFC 8693): `read` (every GET read), `write`
 * (POST /v1/mutations of any edge type), `write:<edgeType>` (of that type
 * only), `admin` (the details of consistency-token 409/503 answers).
 */
export interface Principal {
  /** The token's `sub`; undefined for the anonymous caller of auth mode none. */
  readonly subject: string | undefined;
  readonly scopes: ReadonlySet<string>;
}

/** Auth mode none: the one caller there is may do everything (the listener is loopback, or the operator opted in). */
export const ANONYMOUS: Principal = { subject: undefined, scopes: new Set(['read', 'write', 'admin']) };

/** The `scope` claim → its scopes; a claim that is no string (or absent) grants none. */
export function parseScopes(claim: unknown): ReadonlySet<string> {
  return new Set(typeof claim === 'string' ? claim.split(' ').filter(Boolean) : []);
}

export const mayRead = (p: Principal): boolean => p.scopes.has('read');
export const isAdmin = (p: Principal): boolean => p.scopes.has('admin');

/** May `p` write at least one edge type? (The route's gate before the body is read.) */
export const mayWriteSomething = (p: Principal): boolean => [...p.scopes].some((s) => s === 'write' || s.startsWith('write:'));

/**
 * The scope `p` lacks to write an op on `edgeType`, or undefined when it has it.
 * An op without an edge type (REMOVE_NODE removes every edge of a vertex) needs `write`.
 */
export function missingWriteScope(p: Principal, edgeType: string | undefined): string | undefined {
  if (p.scopes.has('write')) return undefined;
  if (edgeType === undefined) return 'write';
  return p.scopes.has(`write:${edgeType}`) ? undefined : `write:${edgeType}`;
}
