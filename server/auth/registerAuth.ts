import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { problem, ProblemError } from '../http/problem.ts';
import type { ServerMetrics } from '../metrics/serverMetrics.ts';
import type { AuthFailureReason, TokenVerifier } from './createTokenVerifier.ts';
import { ANONYMOUS, mayRead, mayWriteSomething, type Principal } from './scopes.ts';

/** What a route needs of its caller (route `config.access`; absent: open). `metrics` follows `server.auth.metrics`. */
export type RouteAccess = 'open' | 'read' | 'write' | 'metrics';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The authenticated caller; null when the request carried no valid token. */
    principal: Principal | null;
    /** Why the token was refused, when it was. */
    authFailure: { readonly reason: AuthFailureReason; readonly detail: string } | null;
  }
}

/** A caller with no scope: what a request without a principal may do (nothing that needs one). */
const NOBODY: Principal = { subject: undefined, scopes: new Set() };

/** The request's caller, or one with no scope at all (fail closed). */
export const principalOf = (request: FastifyRequest): Principal => request.principal ?? NOBODY;

const MISSING = { reason: 'missing', detail: 'send Authorization: Bearer <token>' } as const;

/** RFC 6750 challenge: `error` only once a token was presented. */
const challenge = (reason: AuthFailureReason, detail: string) =>
  reason === 'missing' ? 'Bearer realm="edgestream"' : `Bearer realm="edgestream", error="invalid_token", error_description="${detail.replace(/["\\]/g, '')}"`;

/** 403 naming the scope the caller lacks (the edge type, for `write:<type>`); counted and logged (never the token). */
export function forbidden(request: FastifyRequest, metrics: ServerMetrics, scope: string, detail: string): ProblemError {
  metrics.authFailures.inc({ reason: 'forbidden' });
  request.log.info({ reason: 'forbidden', scope, subject: request.principal?.subject, url: request.url }, 'request refused');
  return new ProblemError(problem('forbidden', { detail, scope }), { 'www-authenticate': `Bearer realm="edgestream", error="insufficient_scope", scope="${scope}"` });
}

/**
 * Authentication in two steps around the rate limit: `onRequest` verifies the
 * bearer token (an app-level hook, so it runs before the rate limit's
 * route-level one, which then keys by the principal), `preParsing` refuses a
 * caller the route's access does not admit, before its body is read:
 * 401 + WWW-Authenticate without a valid token, 403 without the scope.
 * The token itself is never logged (the logger also redacts the header).
 */
export function registerAuth(app: FastifyInstance, auth: EdgestreamConfig['server']['auth'], verify: TokenVerifier | undefined, metrics: ServerMetrics): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('authFailure', null);

  app.addHook('onRequest', async (request) => {
    if (auth.mode === 'none' || !verify) {
      request.principal = ANONYMOUS;
      return;
    }
    const header = request.headers.authorization;
    if (header === undefined) {
      request.authFailure = MISSING;
      return;
    }
    const m = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
    const verified = m?.[1] ? await verify(m[1]) : ({ ok: false, reason: 'malformed', detail: 'the Authorization header is not "Bearer <token>"' } as const);
    if (verified.ok) request.principal = verified.principal;
    else request.authFailure = { reason: verified.reason, detail: verified.detail };
  });

  app.addHook('preParsing', async (request) => {
    const access = request.routeOptions.config.access ?? 'open';
    if (access === 'open' || (access === 'metrics' && auth.metrics === 'open')) return;
    if (!request.principal) {
      const failure = request.authFailure ?? MISSING;
      metrics.authFailures.inc({ reason: failure.reason });
      request.log.info({ reason: failure.reason, ip: request.ip, url: request.url }, 'request not authenticated');
      throw new ProblemError(problem('unauthorized', { detail: failure.detail }), { 'www-authenticate': challenge(failure.reason, failure.detail) });
    }
    if (access === 'read' && !mayRead(request.principal)) throw forbidden(request, metrics, 'read', 'reads need the scope read');
    if (access === 'write' && !mayWriteSomething(request.principal)) throw forbidden(request, metrics, 'write', 'writes need the scope write or write:<edgeType>');
  });
}
