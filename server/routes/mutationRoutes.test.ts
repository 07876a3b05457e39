import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { EdgeReader } from '../../reads/index.ts';
import { defaultEdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import type { EdgeProducer, SentMutation } from '../../streams/producer/index.ts';
import type { ConsistencyGate } from '../consistency/createConsistencyGate.ts';
import { createEdgeServer, type EdgeServer } from '../createEdgeServer.ts';

/** An SDK stand-in that records each call's arguments and stamps absent event times with its own clock (999). */
function recordingProducer(): EdgeProducer & { readonly calls: { method: string; args: Record<string, unknown> }[] } {
  const calls: { method: string; args: Record<string, unknown> }[] = [];
  const call = (method: string) => async (args: object): Promise<SentMutation> => {
    const a = args as Record<string, unknown>;
    calls.push({ method, args: a });
    return { mutationId: (a['mutationId'] as string | undefined) ?? 'generated', eventTime: (a['eventTime'] as bigint | undefined) ?? 999n, topic: 'in', partition: 0, offset: '7' };
  };
  return {
    calls,
    addEdge: call('addEdge'),
    removeEdge: call('removeEdge'),
    hideEdge: call('hideEdge'),
    unhideEdge: call('unhideEdge'),
    setProperties: call('setProperties'),
    removeProperties: call('removeProperties'),
    removeNode: call('removeNode'),
    flush: async () => {},
    close: async () => {},
  };
}

describe('POST /v1/mutations: who sets the event time', () => {
  let server: EdgeServer | undefined;
  afterEach(() => server?.close());

  const serve = async (serverConfig: NonNullable<EdgestreamConfigInput['server']> = {}) => {
    const producer = recordingProducer();
    const gate: ConsistencyGate = { waitFor: async () => ({ kind: 'visible' }) as never, waiting: 0, close: () => {} };
    server = await createEdgeServer({
      reader: {} as EdgeReader,
      producer,
      gate,
      readiness: [],
      limits: defaultEdgestreamConfig({ server: serverConfig }).server,
      edgeTypes: ['follows', 'likes'],
      logger: pino({ level: 'silent' }),
    });
    const post = async (body: object) => {
      const res = await server!.app.inject({ method: 'POST', url: '/v1/mutations', payload: body });
      return { status: res.statusCode, type: String(res.headers['content-type']), body: res.json() as Record<string, unknown> };
    };
    return { producer, post };
  };

  it('by default the server stamps: a body without eventTime gets the SDK clock of this server', async () => {
    const { producer, post } = await serve();
    const r = await post({ op: 'ADD_EDGE', type: 'follows', src: 'a', dst: 'b' });
    expect(r).toMatchObject({ status: 202, body: { eventTime: '999' } });
    expect(producer.calls).toHaveLength(1);
    expect(producer.calls[0]?.args).not.toHaveProperty('eventTime');
  });

  it.each([
    ['ADD_EDGE', { op: 'ADD_EDGE', type: 'follows', src: 'a', dst: 'b', eventTime: '1700000000000000' }],
    ['REMOVE_NODE', { op: 'REMOVE_NODE', vertex: 'a', eventTime: 1_700_000_000_000_000 }],
  ])('by default a client eventTime (%s) is refused with problem+json naming it, and nothing is published', async (_op, body) => {
    const { producer, post } = await serve();
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.type).toContain('application/problem+json');
    expect(r.body).toMatchObject({
      type: 'urn:edgestream:problem:invalid-params',
      'invalid-params': [{ name: 'eventTime', in: 'body', reason: expect.stringMatching(/server\.clientEventTime/) }],
    });
    expect(producer.calls).toEqual([]);
  });

  it("with server.clientEventTime 'accept' the client's eventTime goes to the SDK (which bounds it), and without one the server stamps", async () => {
    const { producer, post } = await serve({ clientEventTime: 'accept' });
    expect(await post({ op: 'REMOVE_EDGE', type: 'follows', src: 'a', dst: 'b', eventTime: '1700000000000001' })).toMatchObject({ status: 202, body: { eventTime: '1700000000000001' } });
    expect(await post({ op: 'REMOVE_EDGE', type: 'follows', src: 'a', dst: 'b' })).toMatchObject({ status: 202, body: { eventTime: '999' } });
    expect(producer.calls.map((c) => c.args['eventTime'])).toEqual([1_700_000_000_000_001n, undefined]);
  });
});
