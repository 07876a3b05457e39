import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { createTokenVerifier, type TokenVerifier } from './createTokenVerifier.ts';
import { createTestIssuer, type TestIssuer } from './testing/createTestIssuer.ts';

describe('createTokenVerifier', () => {
  let issuer: TestIssuer;
  let verify: TokenVerifier;
  beforeAll(async () => {
    issuer = await createTestIssuer();
    verify = await createTokenVerifier({ ...issuer.auth.jwt, clockToleranceSeconds: 30 });
  });
  afterAll(() => issuer.dispose());

  it('accepts a valid token with its subject and scopes, and one expired within the clock tolerance', async () => {
    expect(await verify(await issuer.sign({ sub: 'svc', scope: 'read write:follows' }))).toEqual({ ok: true, principal: { subject: 'svc', scopes: new Set(['read', 'write:follows']) } });
    expect((await verify(await issuer.sign({ expiresIn: -10 }))).ok).toBe(true);
  });

  it.each([
    ['expired past the tolerance', { expiresIn: -60 }, 'expired'],
    ['signed by another key', { foreignKey: true }, 'bad_signature'],
    ['for another audience', { audience: 'other' }, 'invalid_claims'],
  ] as const)('refuses a token %s (%s)', async (_what, claims, reason) => {
    expect(await verify(await issuer.sign(claims))).toMatchObject({ ok: false, reason });
  });

  it('refuses garbage without throwing, and a JWKS file verifies the same tokens', async () => {
    expect(await verify('a.b.c')).toMatchObject({ ok: false, reason: 'malformed' });
    const byJwks = await createTokenVerifier({ ...issuer.auth.jwt, publicKeyFile: undefined, jwksFile: issuer.jwksFile, clockToleranceSeconds: 0 });
    expect((await byJwks(await issuer.sign())).ok).toBe(true);
    expect(await byJwks(await issuer.sign({ foreignKey: true }))).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('fails the start naming the field when the key file is missing or is no key', async () => {
    await expect(createTokenVerifier({ ...issuer.auth.jwt, publicKeyFile: '/nonexistent/key.pem', clockToleranceSeconds: 0 })).rejects.toThrow(/^server\.auth\.jwt\.publicKeyFile: cannot read/);
    await expect(createTokenVerifier({ ...issuer.auth.jwt, publicKeyFile: issuer.jwksFile, clockToleranceSeconds: 0 })).rejects.toThrow(/^server\.auth\.jwt\.publicKeyFile: .* is no PEM SPKI/);
  });

  it('config: mode jwt needs server.auth.jwt, and exactly one of publicKeyFile or jwksFile', () => {
    expect(() => defaultEdgestreamConfig({ server: { auth: { mode: 'jwt' } } })).toThrow(/server\.auth\.jwt: mode 'jwt' needs/);
    const jwt = { issuer: 'i', audience: 'a' };
    expect(() => defaultEdgestreamConfig({ server: { auth: { mode: 'jwt', jwt } } })).toThrow(/server\.auth\.jwt: give exactly one of publicKeyFile or jwksFile/);
    expect(() => defaultEdgestreamConfig({ server: { auth: { mode: 'jwt', jwt: { ...jwt, publicKeyFile: 'k', jwksFile: 'j' } } } })).toThrow(/exactly one/);
    expect(() => defaultEdgestreamConfig({ server: { auth: { mode: 'jwt', jwt: { ...jwt, jwksFile: 'j', secret: 'x' } } } } as never)).toThrow(/server\.auth\.jwt.*secret/s);
    expect(defaultEdgestreamConfig().server.auth).toEqual({ mode: 'none', allowUnauthenticated: false, metrics: 'open' });
    expect(() => defaultEdgestreamConfig({ server: { readYourWritesTimeoutMs: 30_000, connectionTimeoutMs: 20_000 } })).toThrow(/server\.connectionTimeoutMs: must be above server\.readYourWritesTimeoutMs/);
  });
});
