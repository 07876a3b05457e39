import { responseSchemas } from './apiSchemas.ts';
import { forEdgeTypes } from './forEdgeTypes.ts';
import { operations, type Operation } from './operations.ts';

/** Open to anyone, whatever server.auth says (an empty requirement). */
const OPEN = { security: [] };

const PLAIN_ENDPOINTS = {
  '/healthz': { get: { ...OPEN, operationId: 'healthz', summary: 'the process is alive', responses: { 200: { description: 'alive' } } } },
  '/readyz': {
    get: {
      ...OPEN,
      operationId: 'readyz',
      summary: 'ready: Kafka, the schema registry and Cassandra answer and the split directory is loaded',
      responses: { 200: { description: 'ready' }, 503: { description: 'not ready; `checks` says which failed', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } } },
    },
  },
  '/metrics': {
    get: {
      security: [{}, { bearer: [] }],
      operationId: 'metrics',
      summary: 'Prometheus metrics (open, or any valid token with server.auth.metrics authenticated)',
      responses: { 200: { description: 'text exposition format', content: { 'text/plain': {} } }, 401: { description: 'server.auth.metrics is authenticated and no valid token was sent' } },
    },
  },
  '/openapi.json': { get: { ...OPEN, operationId: 'openapi', summary: 'this document', responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': {} } } } } },
} as const;

/** Answered by Node itself, before the server sees the request, to any of them: no body. */
const NODE_ANSWERS = {
  408: { description: 'the request (headers and body) was not received within server.requestTimeoutMs; the connection is closed (answered by Node, no body)' },
  431: { description: 'the request line and headers exceed 16 KiB (answered by Node, no body)' },
} as const;

/** Headers some statuses carry, whichever operation answers them. */
const RESPONSE_HEADERS: Readonly<Record<string, object>> = {
  401: { 'WWW-Authenticate': { description: 'Bearer challenge (RFC 6750)', schema: { type: 'string' } } },
  403: { 'WWW-Authenticate': { description: 'Bearer challenge with error="insufficient_scope" and the scope needed', schema: { type: 'string' } } },
  429: { 'Retry-After': { description: 'seconds until the rate limit window frees a request', schema: { type: 'integer', minimum: 0 } } },
  503: { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } },
};

/** Node's answers and the headers of each status added to an operation's responses. */
function completeResponses(responses: Readonly<Record<string, object>>): Record<string, object> {
  const all: Record<string, object> = { ...responses, ...NODE_ANSWERS };
  return Object.fromEntries(Object.entries(all).map(([status, r]) => [status, RESPONSE_HEADERS[status] ? { ...r, headers: RESPONSE_HEADERS[status] } : r]));
}

function describe(op: Operation): object {
  const parameters = [
    ...Object.entries(op.pathParams ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
    ...Object.entries(op.query ?? {}).map(([name, schema]) => ({ name, in: 'query', required: (op.requiredQuery ?? []).includes(name), schema })),
  ];
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, [description, schema]]) => {
      const media = Number(status) < 400 ? 'application/json' : 'application/problem+json';
      return [status, { description, ...(schema ? { content: { [media]: { schema: { $ref: `#/components/schemas/${schema}` } } } } : {}) }];
    }),
  );
  return {
    operationId: op.operationId,
    summary: op.summary,
    // With server.auth.mode none (loopback) no token is needed; with jwt, these scopes (POST: write or write:<edgeType>).
    security: [{ bearer: [op.method === 'GET' ? 'read' : 'write'] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    responses: completeResponses(responses),
  };
}

/**
 * The OpenAPI 3.1 document of `edgestream serve` for a config's edge types, built from the schemas
 * the server validates with (edge types as an enum of `edgeTypes`: the document served at
 * /openapi.json lists the server's own; docs/openapi.json those of `defaultEdgestreamConfig`).
 */
export function openApiDocument(version: string, edgeTypes: readonly string[]): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of Object.values(operations) as Operation[]) (paths[op.path] ??= {})[op.method.toLowerCase()] = forEdgeTypes(describe(op), edgeTypes);
  for (const [path, methods] of Object.entries(PLAIN_ENDPOINTS)) paths[path] = { get: { ...methods.get, responses: completeResponses(methods.get.responses) } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'edgestream',
      version,
      description:
        'Reads and writes of the edgestream graph edge store. Writes are published to Kafka and applied by the fan-out asynchronously; ' +
        'a write answers with a consistency token that a read may carry as ?after= to see it (docs/architecture.md §8). Edge types are those of the ' +
        "server's config (an enum in each edge-type parameter; a request naming another is 400). Errors are RFC 9457 problem details, " +
        'but for two that Node answers before the server sees the request, without a body: 408 (the request was not received within server.requestTimeoutMs) ' +
        'and 431 (the request line and headers exceed 16 KiB). A path that routes nowhere is 404.',
    },
    paths,
    components: {
      schemas: responseSchemas,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'When server.auth.mode is jwt: a JWT signed by the configured key (server.auth.jwt), for its issuer and audience, unexpired; ' +
            'its space-separated `scope` claim grants read (every GET), write (POST /v1/mutations, any edge type), write:<edgeType> (that type only) ' +
            'and admin (the details of a refused or pending consistency token). /healthz, /readyz and /openapi.json are open.',
        },
      },
    },
  };
}
