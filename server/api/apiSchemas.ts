import { EDGE_TYPE_PATTERN } from '../../schemas/config/edgestreamConfig.ts';
import { MAX_EDGES_PER_GET, MAX_HOPS, MAX_PAGE_LIMIT, MAX_PER_HOP_CAP, MAX_PROPERTY_KEYS, MAX_RANGE_LIMIT, MAX_TRAVERSAL_CONCURRENCY } from '../../reads/index.ts';

/**
 * The JSON Schemas of the HTTP API (JSON Schema 2020-12, as OpenAPI 3.1 embeds
 * it): the server validates requests with them and `openApiDocument` publishes
 * them, so the two cannot disagree. Bounds come from the reader's own limits.
 */

const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra }) as const;
const microsString = (description: string) => str(`${description}, µs since the epoch as a decimal string (int64)`, { pattern: '^-?\\d+$' });

/** An edge type (path parameter and body field); `forEdgeTypes` makes it an enum of the configured types. */
export const edgeTypeParam = str('edge type, as declared in the config (e.g. follows)', { pattern: EDGE_TYPE_PATTERN.source, maxLength: 30 });
export const vertexParam = (description: string) => str(description, { minLength: 1, maxLength: 4096 });

export const afterParam = str(
  'consistency token from POST /v1/mutations: wait (bounded) until the write it names is visible, else 409 or 503',
  { pattern: '^[a-zA-Z0-9._-]+:\\d+:\\d+$', maxLength: 300 },
);

export const pageQuery = {
  limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: 20, description: `most neighbours on this page (1..${MAX_PAGE_LIMIT})` },
  cursor: str('the cursor of the previous page of the same query', { minLength: 1, maxLength: 4096 }),
  order: { type: 'string', enum: ['newest', 'peer'], description: 'newest first (default) or by peer id; a cursor keeps its own' },
  after: afterParam,
} as const;

/** A time bound of a range: µs, a decimal string (int64); the reader checks its range. */
const timeBound = (description: string) => str(`${description}, µs since the epoch as a decimal string`, { pattern: '^\\d{1,19}$' });

export const timeRangeQuery = {
  low: timeBound('oldest edge time included (default 0)'),
  high: timeBound('edge time excluded, with every later one (default: no bound); page by time with high = the last item\'s time'),
  limit: { type: 'integer', minimum: 1, maximum: MAX_RANGE_LIMIT, default: 20, description: `most neighbours on this page (1..${MAX_RANGE_LIMIT})` },
  cursor: str('the cursor of the previous page of the same range (or of a newest-first page of the same vertex)', { minLength: 1, maxLength: 4096 }),
  after: afterParam,
} as const;

export const propertiesQuery = {
  keys: { type: 'array', items: { type: 'string' }, maxItems: MAX_PROPERTY_KEYS, description: 'read only these properties (repeat the parameter: keys=a&keys=b)' },
  after: afterParam,
} as const;

export const edgesQuery = {
  dst: { type: 'array', minItems: 1, maxItems: MAX_EDGES_PER_GET, items: { type: 'string', minLength: 1, maxLength: 4096 }, description: `the destination vertices (1..${MAX_EDGES_PER_GET}; repeat the parameter: dst=a&dst=b)` },
  keys: { ...propertiesQuery.keys, description: 'also read these properties of each edge found (key pushdown; repeat the parameter)' },
  after: afterParam,
} as const;

export const degreeQuery = {
  direction: { type: 'string', enum: ['out', 'in'], description: 'one direction (default: both)' },
  after: afterParam,
} as const;

/** One traversal hop, `<type>:out|in` (`forEdgeTypes` makes it an enum of the configured types' hops). */
export const hopParam = { type: 'string', pattern: '^[a-z][a-z0-9_]*:(out|in)$' } as const;

export const traversalQuery = {
  hops: {
    type: 'array',
    minItems: 1,
    maxItems: MAX_HOPS,
    items: hopParam,
    description: 'hops in order, each <type>:out|in (repeat the parameter: hops=follows:out&hops=likes:in)',
  },
  cap: { type: 'integer', minimum: 1, maximum: MAX_PER_HOP_CAP, default: 100, description: 'most new vertices per hop' },
  concurrency: { type: 'integer', minimum: 1, maximum: MAX_TRAVERSAL_CONCURRENCY, default: 8, description: 'frontier vertices read at once' },
  after: afterParam,
} as const;

const propertyValue = { type: ['string', 'number', 'boolean', 'null'], description: 'a JSON integer becomes an Avro long, another number a double' } as const;
const common = {
  mutationId: str('idempotency id (default: a random UUID); reuse it to retry the same mutation', { minLength: 1, maxLength: 1024 }),
  eventTime: {
    type: ['integer', 'string'],
    pattern: '^\\d+$',
    description:
      'µs since the epoch; last write wins on it. The server stamps its own clock, and refuses a body carrying eventTime (400) unless ' +
      "its config sets server.clientEventTime to 'accept': then the time must lie at most limits.maxFutureSkewMs ahead of the server clock " +
      'and within the resurrection horizon behind it. A retry of a mutationId on the same server reuses its first time',
  },
} as const;
const edgeFields = { type: edgeTypeParam, src: vertexParam('source vertex'), dst: vertexParam('destination vertex'), ...common } as const;
/** Fields of the ops that write a whole link value (add, hide, unhide): its place in newest-first pages and its payload. */
const edgeValueFields = {
  ...edgeFields,
  edgeTime: { type: ['integer', 'string'], pattern: '^\\d+$', description: 'µs; the edge\'s place in newest-first pages (default: the event time; last write wins on the event time)' },
  data: str('a small opaque payload kept on the edge, base64 (at most limits.maxEdgeDataBytes bytes decoded)', { contentEncoding: 'base64', pattern: '^[A-Za-z0-9+/]*={0,2}$', maxLength: 344 }),
} as const;
const mutationVariant = (op: string, properties: Record<string, unknown>, required: readonly string[]) =>
  ({ type: 'object', additionalProperties: false, required: ['op', ...required], properties: { op: { const: op }, ...properties } }) as const;

/** POST /v1/mutations: one edge mutation, the shape of a `produce --file` line. */
export const mutationSchema = {
  type: 'object',
  required: ['op'],
  discriminator: { propertyName: 'op' },
  oneOf: [
    mutationVariant('ADD_EDGE', { ...edgeValueFields, properties: { type: 'object', additionalProperties: propertyValue } }, ['type', 'src', 'dst']),
    mutationVariant('REMOVE_EDGE', edgeFields, ['type', 'src', 'dst']),
    mutationVariant('HIDE_EDGE', edgeValueFields, ['type', 'src', 'dst']),
    mutationVariant('UNHIDE_EDGE', edgeValueFields, ['type', 'src', 'dst']),
    mutationVariant('SET_PROPERTIES', { ...edgeFields, properties: { type: 'object', additionalProperties: propertyValue } }, ['type', 'src', 'dst', 'properties']),
    mutationVariant('REMOVE_PROPERTIES', { ...edgeFields, keys: { type: 'array', items: { type: 'string' }, description: '[] clears the bag' } }, ['type', 'src', 'dst', 'keys']),
    mutationVariant('REMOVE_NODE', { vertex: vertexParam('the vertex whose every edge is removed'), ...common }, ['vertex']),
  ],
} as const;

const linkData = str('the edge\'s data payload, base64 (present when the link carries one)', { contentEncoding: 'base64' });
const linkState = { enum: ['ACTIVE', 'REMOVED', 'HIDDEN'] } as const;

const neighbour = {
  type: 'object',
  required: ['peer', 'time', 'mutationId'],
  properties: { peer: { type: 'string' }, time: microsString('edge time of the ADD_EDGE'), mutationId: { type: 'string' }, data: linkData },
} as const;

const propertyMap = {
  type: 'object',
  additionalProperties: { type: 'object', required: ['type', 'value'], properties: { type: { enum: ['null', 'boolean', 'long', 'double', 'string', 'bytes'] }, value: {} } },
  description: 'each value with its Avro type; a long is a decimal string, bytes base64',
} as const;

/** Response bodies (documentation only: responses are not re-validated). */
export const responseSchemas = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details',
    required: ['type', 'title', 'status'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      instance: { type: 'string' },
      'invalid-params': {
        type: 'array',
        items: { type: 'object', required: ['name', 'reason'], properties: { name: { type: 'string' }, in: { enum: ['path', 'query', 'body'] }, reason: { type: 'string' } } },
      },
    },
  },
  Edge: {
    type: 'object',
    required: ['type', 'src', 'dst', 'state', 'time', 'mutationId'],
    properties: { type: { type: 'string' }, src: { type: 'string' }, dst: { type: 'string' }, state: linkState, time: microsString('edge time of the winning write'), mutationId: { type: 'string' }, data: linkData },
  },
  Edges: {
    type: 'object',
    required: ['type', 'src', 'items', 'absent'],
    properties: {
      type: { type: 'string' },
      src: { type: 'string' },
      items: {
        type: 'array',
        description: 'the links found, in the order asked (REMOVED and HIDDEN ones with their state)',
        items: {
          type: 'object',
          required: ['dst', 'state', 'time', 'mutationId'],
          properties: { dst: { type: 'string' }, state: linkState, time: microsString('edge time of the winning write'), mutationId: { type: 'string' }, data: linkData, properties: { ...propertyMap, description: `the requested keys present (only with keys); ${propertyMap.description}` } },
        },
      },
      absent: { type: 'array', items: { type: 'string' }, description: 'the dst vertices no mutation ever linked from src' },
    },
  },
  NeighbourPage: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', items: neighbour }, cursor: { type: 'string', description: 'present exactly when more neighbours may follow' } },
  },
  Properties: {
    type: 'object',
    required: ['properties'],
    properties: { properties: propertyMap },
  },
  Degree: {
    type: 'object',
    properties: { out: str('recounted out-degree (a projection: may lag the links)'), in: str('recounted in-degree') },
  },
  Traversal: {
    type: 'object',
    required: ['hops', 'truncated'],
    properties: {
      hops: { type: 'array', items: { type: 'object', properties: { vertices: { type: 'array', items: { type: 'string' } }, truncated: { type: 'boolean' } } } },
      truncated: { type: 'boolean' },
    },
  },
  MutationAccepted: {
    type: 'object',
    required: ['mutationId', 'eventTime', 'token', 'topic', 'partition', 'offset'],
    properties: {
      mutationId: { type: 'string' },
      eventTime: microsString('the event time the mutation carries'),
      token: str('consistency token: pass it as ?after= to read this write'),
      topic: { type: 'string' },
      partition: { type: 'integer' },
      offset: str('offset of the record in its partition (int64)'),
    },
  },
} as const;
