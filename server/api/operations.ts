import { forEdgeTypes } from './forEdgeTypes.ts';
import { degreeQuery, edgesQuery, edgeTypeParam, mutationSchema, pageQuery, propertiesQuery, timeRangeQuery, traversalQuery, vertexParam } from './apiSchemas.ts';

type Properties = Readonly<Record<string, object>>;

/** One HTTP operation: its route, its request schemas and what it answers (the OpenAPI source). */
export interface Operation {
  readonly operationId: string;
  readonly method: 'GET' | 'POST';
  /** OpenAPI path template, `{name}` for a path parameter. */
  readonly path: string;
  readonly summary: string;
  readonly pathParams?: Properties;
  readonly query?: Properties;
  readonly requiredQuery?: readonly string[];
  readonly body?: object;
  /** Status → [description, response schema name in `responseSchemas`, or none]. */
  readonly responses: Readonly<Record<number, readonly [string, string?]>>;
}

/** Answers of every operation when server.auth.mode is jwt. */
const authErrors = {
  401: ['no bearer token, or one expired, not signed by the configured key, or for another issuer/audience (WWW-Authenticate: Bearer)', 'Problem'],
  403: ['the token lacks the scope the operation needs (named in `scope`)', 'Problem'],
} as const;

const readErrors = {
  400: ['a parameter is invalid (named in invalid-params)', 'Problem'],
  ...authErrors,
  409: ['the consistency token names a record this server does not know', 'Problem'],
  414: ['a path parameter is longer than the server takes', 'Problem'],
  429: ['rate limited (Retry-After)', 'Problem'],
  503: ['the token\'s write is not visible yet within the wait, the store is unavailable, or the server is at server.maxReadsInFlight / server.maxTokenWaiters (Retry-After)', 'Problem'],
} as const;

const edgePath = { type: edgeTypeParam, src: vertexParam('source vertex'), dst: vertexParam('destination vertex') };
const vertexPath = { type: edgeTypeParam, vertex: vertexParam('the vertex') };

const neighbours = (direction: 'out' | 'in'): Operation => ({
  operationId: direction === 'out' ? 'listOutNeighbours' : 'listInNeighbours',
  method: 'GET',
  path: `/v1/vertices/{vertex}/${direction}/{type}`,
  summary: direction === 'out' ? 'a page of the vertices <vertex> links to (ACTIVE links)' : 'a page of the vertices linking to <vertex> (ACTIVE links)',
  pathParams: vertexPath,
  query: pageQuery,
  responses: { 200: ['a page; follow `cursor` for the next', 'NeighbourPage'], ...readErrors },
});

const timeRange = (direction: 'out' | 'in'): Operation => ({
  operationId: direction === 'out' ? 'listOutTimeRange' : 'listInTimeRange',
  method: 'GET',
  path: `/v1/vertices/{vertex}/${direction}/{type}/range`,
  summary: `${direction === 'out' ? 'the vertices <vertex> links to' : 'the vertices linking to <vertex>'} with edge time in [low, high), newest first (ACTIVE links; TAO's assoc_time_range)`,
  pathParams: vertexPath,
  query: timeRangeQuery,
  responses: { 200: ['a page; follow `cursor`, or ask again with high = the last item\'s time', 'NeighbourPage'], ...readErrors },
});

/** Every operation of the API, in the order the document lists them. */
export const operations = {
  getEdge: {
    operationId: 'getEdge',
    method: 'GET',
    path: '/v1/edges/{type}/{src}/{dst}',
    summary: 'the link src → dst: ACTIVE or REMOVED, its time and mutation id',
    pathParams: edgePath,
    query: { after: pageQuery.after },
    responses: { 200: ['the link', 'Edge'], 404: ['no mutation ever touched this link', 'Problem'], ...readErrors },
  },
  getEdges: {
    operationId: 'getEdges',
    method: 'GET',
    path: '/v1/edges/{type}/{src}',
    summary: "the links src → each dst in one read (TAO's assoc_get), with the named properties of each",
    pathParams: { type: edgeTypeParam, src: vertexParam('source vertex') },
    query: edgesQuery,
    requiredQuery: ['dst'],
    responses: { 200: ['the links found and the dsts never linked', 'Edges'], ...readErrors },
  },
  getProperties: {
    operationId: 'getProperties',
    method: 'GET',
    path: '/v1/edges/{type}/{src}/{dst}/properties',
    summary: "the edge's property bag, or only the named keys (key pushdown: only those cross the wire)",
    pathParams: edgePath,
    query: propertiesQuery,
    responses: { 200: ['the properties (absent keys are left out)', 'Properties'], ...readErrors },
  },
  listOutNeighbours: neighbours('out'),
  listInNeighbours: neighbours('in'),
  listOutTimeRange: timeRange('out'),
  listInTimeRange: timeRange('in'),
  getDegree: {
    operationId: 'getDegree',
    method: 'GET',
    path: '/v1/vertices/{vertex}/degree/{type}',
    summary: 'recounted degree of <vertex> (a projection: lags the links by up to a recount interval)',
    pathParams: vertexPath,
    query: degreeQuery,
    responses: { 200: ['the degrees', 'Degree'], ...readErrors },
  },
  traverse: {
    operationId: 'traverse',
    method: 'GET',
    path: '/v1/vertices/{vertex}/traversal',
    summary: 'breadth-first hops from <vertex>, each hop capped; reports truncation',
    pathParams: { vertex: vertexParam('the start vertex') },
    query: traversalQuery,
    requiredQuery: ['hops'],
    responses: { 200: ['the vertices reached per hop', 'Traversal'], ...readErrors },
  },
  postMutation: {
    operationId: 'postMutation',
    method: 'POST',
    path: '/v1/mutations',
    summary: 'publish one edge mutation (acks=all); answers once Kafka acknowledged it, with a consistency token',
    body: mutationSchema,
    responses: {
      202: ['published; the fan-out applies it asynchronously (pass `token` as ?after= to read it)', 'MutationAccepted'],
      400: ['the body is invalid (named in invalid-params)', 'Problem'],
      ...authErrors,
      403: ['the token lacks write, or write:<edgeType> for the op\'s edge type (named in `scope`); REMOVE_NODE needs write', 'Problem'],
      413: ['the body is larger than server.bodyLimitBytes', 'Problem'],
      415: ['the body is not application/json', 'Problem'],
      429: ['rate limited (Retry-After)', 'Problem'],
      503: ['Kafka did not acknowledge the mutation (Retry-After)', 'Problem'],
    },
  },
} as const satisfies Record<string, Operation>;

/**
 * The fastify route schema of an operation for the config's edge types (path `{x}` → `:x`, strict
 * objects so unknown parameters are refused, edge types an enum of `edgeTypes`).
 */
export function routeOf(op: Operation, edgeTypes: readonly string[]): { url: string; schema: Record<string, object> } {
  const object = (properties: Properties, required: readonly string[]) => ({ type: 'object', properties, required, additionalProperties: false });
  const schema: Record<string, object> = {};
  if (op.pathParams) schema['params'] = object(op.pathParams, Object.keys(op.pathParams));
  if (op.query) schema['querystring'] = object(op.query, op.requiredQuery ?? []);
  if (op.body) schema['body'] = op.body;
  return { url: op.path.replace(/\{(\w+)\}/g, ':$1'), schema: forEdgeTypes(schema, edgeTypes) };
}
