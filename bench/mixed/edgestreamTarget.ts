import type http from 'node:http';
import type { EdgeProducer, SentMutation } from '../../streams/producer/index.ts';
import { degreeUrl, edgesUrl, getJson, neighboursUrl } from '../reads/httpGet.ts';
import { LINKS_LIST_LIMIT, type MixOp } from './opMix.ts';
import { nowMicros, type LinkRow, type MixTarget } from './mixTarget.ts';

interface PageJson {
  readonly items: readonly { readonly peer: string; readonly time: string; readonly data?: string }[];
}
interface EdgesJson {
  readonly items: readonly { readonly dst: string; readonly state: string; readonly time: string; readonly mutationId: string; readonly data?: string }[];
}

/** A write the target made, once Kafka acknowledged it (for the write → visible probe). */
export interface AckedWrite {
  readonly src: string;
  readonly dst: string;
  readonly mutationId: string;
  readonly ackedAt: number;
}

/**
 * edgestream as a LinkBench client uses it: reads over HTTP from a running
 * `edgestream serve` (GET_LINKS_LIST = the newest-first out page of 50,
 * MULTIGET_LINK = the multi-get route, COUNT_LINK = the out degree), writes as
 * EdgeMutation records through the producer SDK, each awaited until Kafka
 * acknowledged it (ADD_LINK and UPDATE_LINK = addEdge with the client's time
 * and the op's data; DELETE_LINK = a multi-get of the link, then, if it is
 * ACTIVE, hideEdge with its time and data: LinkBench's soft delete).
 */
export function createEdgestreamTarget(o: {
  baseUrl: string;
  edgeType: string;
  agent: http.Agent;
  producer: EdgeProducer;
  onWrite?: (w: AckedWrite) => void;
}): MixTarget {
  const get = <T>(url: string) => getJson(o.agent, url) as Promise<T>;
  const acked = (src: string, dst: string, sent: SentMutation) => o.onWrite?.({ src, dst, mutationId: sent.mutationId, ackedAt: performance.now() });
  const edges = async (src: string, dsts: readonly string[]) => (await get<EdgesJson>(edgesUrl(o.baseUrl, o.edgeType, src, dsts))).items;
  const page = async (src: string, limit: number): Promise<LinkRow[]> =>
    (await get<PageJson>(neighboursUrl(o.baseUrl, 'out', o.edgeType, src, limit))).items.map((n) => ({ dst: n.peer, time: BigInt(n.time), data: n.data ?? '' }));

  return {
    async execute(op: MixOp) {
      switch (op.kind) {
        case 'GET_LINKS_LIST':
          return void (await page(op.src, LINKS_LIST_LIMIT));
        case 'MULTIGET_LINK':
          return void (await edges(op.src, op.dsts));
        case 'COUNT_LINK':
          return void (await get(degreeUrl(o.baseUrl, o.edgeType, op.src, 'out')));
        case 'ADD_LINK':
        case 'UPDATE_LINK':
          return acked(op.src, op.dst, await o.producer.addEdge({ type: o.edgeType, src: op.src, dst: op.dst, edgeTime: nowMicros(), data: op.data }));
        case 'DELETE_LINK': {
          const [link] = await edges(op.src, [op.dst]);
          if (link?.state !== 'ACTIVE') return;
          const data = link.data === undefined ? {} : { data: Buffer.from(link.data, 'base64') };
          return acked(op.src, op.dst, await o.producer.hideEdge({ type: o.edgeType, src: op.src, dst: op.dst, edgeTime: BigInt(link.time), ...data }));
        }
      }
    },
    page,
    links: async (src, dsts) => (await edges(src, dsts)).map((l) => ({ dst: l.dst, time: BigInt(l.time), data: l.data ?? '', visible: l.state === 'ACTIVE' })),
    count: async (src) => BigInt((await get<{ out: string }>(degreeUrl(o.baseUrl, o.edgeType, src, 'out'))).out),
  };
}

/** Whether the link src → dst carries `mutationId` now, read over HTTP (the multi-get route, as a user would). */
export const carriesMutation = (baseUrl: string, edgeType: string, agent: http.Agent) => async (w: AckedWrite): Promise<boolean> => {
  const body = (await getJson(agent, edgesUrl(baseUrl, edgeType, w.src, [w.dst]))) as EdgesJson;
  return body.items[0]?.mutationId === w.mutationId;
};
