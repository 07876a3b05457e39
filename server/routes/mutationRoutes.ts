import type { FastifyInstance } from 'fastify';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { sendEdgeOp, type EdgeOpArgs, type EdgeProducer } from '../../streams/producer/index.ts';
import { operations, routeOf } from '../api/operations.ts';
import { forbidden, principalOf } from '../auth/registerAuth.ts';
import { missingWriteScope } from '../auth/scopes.ts';
import { formatConsistencyToken } from '../consistency/consistencyToken.ts';
import { problem, sendProblem } from '../http/problem.ts';
import type { ServerMetrics } from '../metrics/serverMetrics.ts';

type JsonProperty = string | number | boolean | null;
type Body = Record<string, unknown> & { op: EdgeOpArgs['op']; properties?: Record<string, JsonProperty>; eventTime?: number | string; edgeTime?: number | string; data?: string };

/** A validated body → SDK arguments: JSON integers become longs (as in `produce --file`), times bigints, data bytes from base64. */
function toEdgeOp(body: Body): EdgeOpArgs {
  const { properties, eventTime, edgeTime, data, ...rest } = body;
  return {
    ...rest,
    ...(properties ? { properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v])) } : {}),
    ...(eventTime === undefined ? {} : { eventTime: BigInt(eventTime) }),
    ...(edgeTime === undefined ? {} : { edgeTime: BigInt(edgeTime) }),
    ...(data === undefined ? {} : { data: Uint8Array.from(Buffer.from(data, 'base64')) }),
  } as EdgeOpArgs;
}

export interface MutationRoutesOptions {
  readonly producer: EdgeProducer;
  readonly metrics: ServerMetrics;
  /** config `server.clientEventTime`: whether a body may carry its own `eventTime` (else the server stamps). */
  readonly clientEventTime: EdgestreamConfig['server']['clientEventTime'];
  /** The config's edge types: a body naming another is a 400 (the schema's enum). */
  readonly edgeTypes: readonly string[];
}

const STAMPED = "this server stamps event times with its own clock (server.clientEventTime is 'reject'); leave eventTime out";

/**
 * POST /v1/mutations: publish through the producer SDK; 202 once Kafka acknowledged it (acks=all), with the consistency token.
 * The SDK stamps the event time unless the body carries one the config lets it carry (then the SDK bounds it).
 * The caller needs `write`, or `write:<edgeType>` for the op's edge type (403 naming it otherwise).
 */
export function registerMutationRoutes(app: FastifyInstance, { producer, metrics, clientEventTime, edgeTypes }: MutationRoutesOptions): void {
  const op = operations.postMutation;
  app.route({
    method: op.method,
    ...routeOf(op, edgeTypes),
    config: { access: 'write' },
    handler: async (request, reply) => {
      const body = request.body as Body;
      const edgeType = typeof body['type'] === 'string' ? body['type'] : undefined;
      const lacking = missingWriteScope(principalOf(request), edgeType);
      if (lacking !== undefined) {
        metrics.mutations.inc({ op: body.op, outcome: 'rejected' });
        throw forbidden(request, metrics, lacking, edgeType === undefined ? `${body.op} touches every edge type: it needs the scope write` : `the token may not write edge type ${edgeType}: it needs the scope write or ${lacking}`);
      }
      if (body.eventTime !== undefined && clientEventTime === 'reject') {
        metrics.mutations.inc({ op: body.op, outcome: 'rejected' });
        return sendProblem(reply, problem('invalidParams', { detail: `eventTime: ${STAMPED}`, 'invalid-params': [{ name: 'eventTime', in: 'body', reason: STAMPED }] }));
      }
      try {
        const sent = await sendEdgeOp(producer, toEdgeOp(body));
        metrics.mutations.inc({ op: body.op, outcome: 'published' });
        request.log.debug({ topic: sent.topic, partition: sent.partition, offset: sent.offset, mutation_id: sent.mutationId }, 'mutation published');
        return reply.code(202).send({ mutationId: sent.mutationId, eventTime: String(sent.eventTime), token: formatConsistencyToken(sent), topic: sent.topic, partition: sent.partition, offset: sent.offset });
      } catch (e) {
        metrics.mutations.inc({ op: body.op, outcome: (e as { code?: string }).code === 'INVALID_ARGUMENT' ? 'rejected' : 'failed' });
        throw e;
      }
    },
  });
}
