import type { EdgeReader, NeighbourOrder } from '../../reads/index.ts';
import type { EdgeProducer } from '../../streams/producer/index.ts';

/**
 * The model of celebrities' `follows` in-edges a test publishes: follower → event time of its live
 * follow, per celebrity, with the reads it must equal (newest first, or by peer) and a full scan by cursor.
 */
export interface FollowersModel {
  follow(celeb: string, follower: string): Promise<void>;
  unfollow(celeb: string, follower: string): Promise<void>;
  /** Records a follow the caller writes itself (straight to the store, say) and returns its event time. */
  recordFollow(celeb: string, follower: string): bigint;
  /** The followers of `celeb` as a full scan in `order` must return them. */
  expected(celeb: string, order: NeighbourOrder): string[];
  /** Every page of `in(celeb)` by cursor; throws on a repeated peer. */
  scan(reader: EdgeReader, celeb: string, order: NeighbourOrder, limit?: number): Promise<string[]>;
}

/** Event times start at `startMicros` and step by 1 ms, so every event of the model has its own time. */
export function createFollowersModel(producer: EdgeProducer, startMicros: bigint): FollowersModel {
  const models = new Map<string, Map<string, bigint>>();
  let clock = startMicros;
  const of = (celeb: string) => models.get(celeb) ?? models.set(celeb, new Map()).get(celeb)!;
  const recordFollow = (celeb: string, follower: string): bigint => {
    const eventTime = (clock += 1_000n);
    of(celeb).set(follower, eventTime);
    return eventTime;
  };
  return {
    async follow(celeb, follower) {
      // Recorded before the send: the model holds what was published, even if the caller does not await.
      await producer.addEdge({ type: 'follows', src: follower, dst: celeb, eventTime: recordFollow(celeb, follower) });
    },
    async unfollow(celeb, follower) {
      const eventTime = (clock += 1_000n);
      of(celeb).delete(follower);
      await producer.removeEdge({ type: 'follows', src: follower, dst: celeb, eventTime });
    },
    recordFollow,
    expected(celeb, order) {
      const entries = [...of(celeb)];
      return order === 'newest'
        ? entries.sort((a, b) => (a[1] === b[1] ? (a[0] < b[0] ? -1 : 1) : a[1] > b[1] ? -1 : 1)).map(([peer]) => peer)
        : entries.map(([peer]) => peer).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    },
    async scan(reader, celeb, order, limit = 1_000) {
      const peers: string[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await reader.in('follows', celeb, { limit, order, ...(cursor ? { cursor } : {}) });
        for (const item of page.items) {
          if (seen.has(item.peer)) throw new Error(`${item.peer} returned twice`);
          seen.add(item.peer);
          peers.push(item.peer);
        }
        cursor = page.cursor;
      } while (cursor !== undefined);
      return peers;
    },
  };
}
