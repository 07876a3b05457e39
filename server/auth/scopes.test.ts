import { describe, expect, it } from 'vitest';
import { ANONYMOUS, isAdmin, mayRead, mayWriteSomething, missingWriteScope, parseScopes } from './scopes.ts';

const principal = (scope: unknown) => ({ subject: 's', scopes: parseScopes(scope) });

describe('scopes', () => {
  it('parse a space-separated claim; anything else grants nothing', () => {
    expect([...parseScopes('read  write:follows ')]).toEqual(['read', 'write:follows']);
    for (const claim of [undefined, 42, ['read'], null]) expect(parseScopes(claim).size).toBe(0);
  });

  it('write covers every edge type and REMOVE_NODE; write:<type> only its type', () => {
    const all = principal('write');
    expect([missingWriteScope(all, 'follows'), missingWriteScope(all, undefined)]).toEqual([undefined, undefined]);
    const follows = principal('read write:follows');
    expect(missingWriteScope(follows, 'follows')).toBeUndefined();
    expect(missingWriteScope(follows, 'likes')).toBe('write:likes');
    expect(missingWriteScope(follows, undefined)).toBe('write');
    expect(mayWriteSomething(follows)).toBe(true);
    expect(mayWriteSomething(principal('read admin'))).toBe(false);
  });

  it('read and admin are their own scopes (write does not imply read); the anonymous caller of mode none has all', () => {
    expect([mayRead(principal('write')), isAdmin(principal('read write'))]).toEqual([false, false]);
    expect([mayRead(ANONYMOUS), isAdmin(ANONYMOUS), missingWriteScope(ANONYMOUS, 'x')]).toEqual([true, true, undefined]);
  });
});
