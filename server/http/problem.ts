import type { FastifyReply } from 'fastify';

export interface InvalidParam {
  readonly name: string;
  readonly in?: 'path' | 'query' | 'body';
  readonly reason: string;
}

/** An RFC 9457 problem details object; `type` is a stable URN per kind of problem. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly 'invalid-params'?: readonly InvalidParam[];
  /** Seconds, sent as the Retry-After header (429, 503). */
  readonly retryAfterSeconds?: number;
  readonly [extension: string]: unknown;
}

/** The problem kinds this API answers with (type URN, title, status): one closed table. */
export const PROBLEMS = {
  invalidParams: ['invalid-params', 'Your request parameters did not validate', 400],
  badRequest: ['bad-request', 'Bad request', 400],
  unauthorized: ['unauthorized', 'A valid bearer token is required', 401],
  forbidden: ['forbidden', 'The token does not grant this', 403],
  notFound: ['not-found', 'Not found', 404],
  unknownToken: ['unknown-consistency-token', 'The consistency token names a record this server does not know', 409],
  bodyTooLarge: ['body-too-large', 'The request body is too large', 413],
  uriTooLong: ['uri-too-long', 'A path parameter is too long', 414],
  unsupportedMedia: ['unsupported-media-type', 'The request body must be application/json', 415],
  rateLimited: ['rate-limited', 'Too many requests', 429],
  internal: ['internal', 'Internal server error', 500],
  notVisibleYet: ['write-not-visible-yet', 'The write named by the consistency token is not visible yet', 503],
  unavailable: ['unavailable', 'A backing service is unavailable', 503],
  notReady: ['not-ready', 'Not ready', 503],
  overloaded: ['overloaded', 'The server is at its limit of work in flight', 503],
} as const satisfies Record<string, readonly [string, string, number]>;

export type ProblemKind = keyof typeof PROBLEMS;

export function problem(kind: ProblemKind, fields: Omit<Problem, 'type' | 'title' | 'status'> = {}): Problem {
  const [slug, title, status] = PROBLEMS[kind];
  return { type: `urn:edgestream:problem:${slug}`, title, status, ...fields };
}

/** Sends a problem as `application/problem+json` (with Retry-After when it has one). */
export function sendProblem(reply: FastifyReply, p: Problem): FastifyReply {
  const { retryAfterSeconds, ...body } = p;
  if (retryAfterSeconds !== undefined) void reply.header('retry-after', String(retryAfterSeconds));
  return reply.code(p.status).type('application/problem+json').send({ ...body, instance: reply.request.url });
}

/**
 * A problem thrown from a hook: the error handler answers it as is, with its headers
 * (throwing, unlike replying from an async hook, reliably ends the request's lifecycle).
 */
export class ProblemError extends Error {
  readonly problem: Problem;
  readonly headers: Readonly<Record<string, string>>;

  constructor(problem: Problem, headers: Readonly<Record<string, string>> = {}) {
    super(problem.detail ?? problem.title);
    this.problem = problem;
    this.headers = headers;
  }
}
