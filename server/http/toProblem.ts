import { isReadArgumentError } from '../../reads/index.ts';
import { ProducerError } from '../../streams/producer/index.ts';
import { problem, type InvalidParam, type Problem } from './problem.ts';

/** The API's name of a reader argument, where it differs (`perHopCap` is `?cap=`). */
const PARAM_OF_ARGUMENT: Readonly<Record<string, string>> = { perHopCap: 'cap', start: 'vertex', dsts: 'dst' };

interface AjvError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Readonly<Record<string, unknown>>;
}

const IN_OF_CONTEXT: Readonly<Record<string, InvalidParam['in']>> = { params: 'path', querystring: 'query', body: 'body' };

/** A JSON Pointer (RFC 6901) token, as ajv writes `instancePath`: `~1` is `/`, `~0` is `~`; nothing is percent-encoded. */
const unescapePointerToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** Why ajv refused a value, in the API's words: an enum (the config's edge types, say) lists what it takes. */
function reasonOf(e: AjvError): string {
  if (e.keyword === 'additionalProperty' || e.keyword === 'additionalProperties') return 'is not a parameter of this operation';
  const allowed = e.params['allowedValues'];
  if (e.keyword === 'enum' && Array.isArray(allowed)) return `must be one of: ${allowed.join(', ')}`;
  return e.message ?? e.keyword;
}

/** One ajv error → the parameter it is about (`limit`, `src`, `properties.since`, `hops.1`). */
function invalidParam(e: AjvError, context: string | undefined): InvalidParam {
  const path = e.instancePath.split('/').filter(Boolean).map(unescapePointerToken);
  const child = e.params['missingProperty'] ?? e.params['additionalProperty'] ?? (e.keyword === 'discriminator' ? e.params['tag'] : undefined);
  if (typeof child === 'string') path.push(child);
  const name = path.join('.') || (context === 'body' ? 'body' : '(request)');
  const where = context === undefined ? undefined : IN_OF_CONTEXT[context];
  return { name, ...(where ? { in: where } : {}), reason: reasonOf(e) };
}

/**
 * Everything a handler or fastify may throw → the problem to answer with:
 * schema validation (400, every failing parameter named), a reader's argument
 * error (400), a producer's (400) or Kafka's refusal (503), fastify's own
 * client errors (413, 415, ...), else 500 (logged by the caller).
 */
export function toProblem(error: unknown): { problem: Problem; internal: boolean } {
  const e = error as { validation?: readonly AjvError[]; validationContext?: string; statusCode?: number; code?: string; message?: string };
  if (Array.isArray(e.validation)) {
    const params = e.validation.map((v) => invalidParam(v, e.validationContext));
    return { problem: problem('invalidParams', { detail: params.map((p) => `${p.name}: ${p.reason}`).join('; '), 'invalid-params': params }), internal: false };
  }
  if (isReadArgumentError(error)) {
    const root = error.argument.replace(/[.[].*$/, '');
    const name = (PARAM_OF_ARGUMENT[root] ?? root) + error.argument.slice(root.length).replace(/\[(\d+)\]/g, '.$1');
    return { problem: problem('invalidParams', { detail: `${name}: ${error.reason}`, 'invalid-params': [{ name, reason: error.reason }] }), internal: false };
  }
  if (ProducerError.is(error)) {
    if (error.code === 'INVALID_ARGUMENT') {
      const name = error.argument ?? 'body';
      return { problem: problem('invalidParams', { detail: error.message, 'invalid-params': [{ name, in: 'body', reason: error.message }] }), internal: false };
    }
    return { problem: problem('unavailable', { detail: `the mutation was not published: ${error.message}`, retryAfterSeconds: 1 }), internal: error.code !== 'SEND_FAILED' };
  }
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { problem: problem('bodyTooLarge', { detail: e.message ?? '' }), internal: false };
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { problem: problem('unsupportedMedia', { detail: e.message ?? '' }), internal: false };
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { problem: { ...problem('badRequest', { detail: e.message ?? 'bad request' }), status: e.statusCode }, internal: false };
  }
  if ((e as { retriable?: unknown }).retriable === true) return { problem: problem('unavailable', { detail: e.message ?? '', retryAfterSeconds: 1 }), internal: false };
  return { problem: problem('internal', { detail: 'see the server log' }), internal: true };
}
