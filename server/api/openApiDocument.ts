import { responseSchemas } from './apiSchemas.ts';
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
    responses,
  };
}

/** The OpenAPI 3.1 document of `edgestream serve`, built from the schemas the server validates with. */
export function openApiDocument(version: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of Object.values(operations) as Operation[]) (paths[op.path] ??= {})[op.method.toLowerCase()] = describe(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'edgestream',
      version,
      description:
        'Reads and writes of the edgestream graph edge store. Writes are published to Kafka and applied by the fan-out asynchronously; ' +
        'a write answers with a consistency token that a read may carry as ?after= to see it (docs/architecture.md §8). Errors are RFC 9457 problem details, ' +
        'but for two that Node answers before the server sees the request, without a body: 408 (the request was not received within server.requestTimeoutMs) ' +
        'and 431 (the request line and headers exceed 16 KiB).',
    },
    paths: { ...paths, ...PLAIN_ENDPOINTS },
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
