import fs from 'node:fs';
import { createLocalJWKSet, errors, importSPKI, jwtVerify, type JWTVerifyGetKey, type JSONWebKeySet } from 'jose';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { parseScopes, type Principal } from './scopes.ts';

type JwtConfig = NonNullable<EdgestreamConfig['server']['auth']['jwt']>;

/** Why a bearer token was refused (a metrics label, so a closed set). */
export type AuthFailureReason = 'missing' | 'malformed' | 'expired' | 'bad_signature' | 'invalid_claims';

export type Verified = { readonly ok: true; readonly principal: Principal } | { readonly ok: false; readonly reason: AuthFailureReason; readonly detail: string };

/** Verifies one compact JWT (never throws). */
export type TokenVerifier = (token: string) => Promise<Verified>;

/** A jose error → the reason a client is told; its message names the claim, never the token. */
function reasonOf(e: unknown): { reason: AuthFailureReason; detail: string } {
  if (e instanceof errors.JWTExpired) return { reason: 'expired', detail: 'the token has expired' };
  if (e instanceof errors.JWTClaimValidationFailed) return { reason: 'invalid_claims', detail: `claim ${e.claim}: ${e.message}` };
  if (e instanceof errors.JWSSignatureVerificationFailed || e instanceof errors.JWKSNoMatchingKey) return { reason: 'bad_signature', detail: 'the signature does not verify with the configured key' };
  if (e instanceof errors.JOSEAlgNotAllowed) return { reason: 'bad_signature', detail: 'the token is signed with an algorithm this server does not accept' };
  return { reason: 'malformed', detail: 'the bearer token is not a signed JWT' };
}

/**
 * Loads the key (PEM SPKI) or the local JWKS named by `server.auth.jwt` once, at start (a bad
 * file fails the start naming its field), and verifies tokens with jose: signature by one of
 * `algorithms`, `iss`, `aud`, `exp` (required) and `nbf` within `clockToleranceSeconds`, and a `sub`.
 */
export async function createTokenVerifier(config: JwtConfig): Promise<TokenVerifier> {
  const read = (field: string, file: string): string => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`server.auth.jwt.${field}: cannot read ${file}: ${(e as Error).message}`, { cause: e });
    }
  };
  let key: JWTVerifyGetKey | Awaited<ReturnType<typeof importSPKI>>;
  if (config.publicKeyFile !== undefined) {
    const [alg] = config.algorithms;
    const pem = read('publicKeyFile', config.publicKeyFile);
    try {
      key = await importSPKI(pem, alg ?? 'ES256');
    } catch (e) {
      throw new Error(`server.auth.jwt.publicKeyFile: ${config.publicKeyFile} is no PEM SPKI public key for ${alg}: ${(e as Error).message}`, { cause: e });
    }
  } else {
    const file = config.jwksFile ?? '';
    const text = read('jwksFile', file);
    try {
      key = createLocalJWKSet(JSON.parse(text) as JSONWebKeySet);
    } catch (e) {
      throw new Error(`server.auth.jwt.jwksFile: ${file} is no JWKS: ${(e as Error).message}`, { cause: e });
    }
  }
  const options = { issuer: config.issuer, audience: config.audience, algorithms: [...config.algorithms], clockTolerance: config.clockToleranceSeconds, requiredClaims: ['exp', 'sub'] };
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, key as JWTVerifyGetKey, options);
      return { ok: true, principal: { subject: payload.sub, scopes: parseScopes(payload['scope']) } };
    } catch (e) {
      return { ok: false, ...reasonOf(e) };
    }
  };
}
