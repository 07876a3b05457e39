import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';

export interface TokenClaims {
  readonly sub?: string;
  readonly scope?: string;
  /** Seconds from now; negative: already expired. Default 300. */
  readonly expiresIn?: number;
  /** Signs with a key the server does not know. */
  readonly foreignKey?: boolean;
  readonly audience?: string;
}

export interface TestIssuer {
  /** `server.auth` for a server that trusts this issuer (its public key in a temp file). */
  readonly auth: { mode: 'jwt'; jwt: { publicKeyFile: string; issuer: string; audience: string; algorithms: ['ES256'] } };
  /** The same key as a local JWKS file. */
  readonly jwksFile: string;
  sign(claims?: TokenClaims): Promise<string>;
  /** Removes the temp files. */
  dispose(): void;
}

/** Tests only: an ES256 issuer with keys generated now (no private key is ever checked in). */
export async function createTestIssuer(): Promise<TestIssuer> {
  const [own, foreign] = await Promise.all([generateKeyPair('ES256', { extractable: true }), generateKeyPair('ES256')]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-jwt-'));
  const publicKeyFile = path.join(dir, 'jwt.pub.pem');
  fs.writeFileSync(publicKeyFile, await exportSPKI(own.publicKey));
  const jwksFile = path.join(dir, 'jwks.json');
  fs.writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...(await exportJWK(own.publicKey)), kid: 'test', alg: 'ES256', use: 'sig' }] }));
  const issuer = 'https://issuer.test';
  const audience = 'edgestream';
  return {
    auth: { mode: 'jwt', jwt: { publicKeyFile, issuer, audience, algorithms: ['ES256'] } },
    jwksFile,
    sign: async ({ sub = 'alice', scope = 'read write', expiresIn = 300, foreignKey = false, audience: aud = audience } = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ scope })
        .setProtectedHeader({ alg: 'ES256', kid: 'test' })
        .setSubject(sub)
        .setIssuer(issuer)
        .setAudience(aud)
        .setIssuedAt(now - 600)
        .setExpirationTime(now + expiresIn)
        .sign(foreignKey ? foreign.privateKey : own.privateKey);
    },
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
