import { allWrites, createFanOutProcessor } from '../../processors/index.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { addEdgeWorkload } from '../ingest/workload.ts';
import { followerOf, type Celebrity } from '../wide/celebrityWorkload.ts';

/** One celebrity write of the stream: when its link and mark had landed, and the true follower count after it. */
export interface LandedWrite {
  readonly landedAtMs: number;
  readonly truth: number;
}

/**
 * The steady stream of a phase, written the way the pipeline writes it: the
 * real fan-out processor's writes at the event time, then its degree_dirty
 * marks stamped with the wall clock once the links landed. The celebrity gets
 * `rate` events/s, alternately a new follower and an unfollow of a loaded one
 * (in order, so the truth after each is known); the background `backgroundRate`
 * Zipf ADD_EDGEs/s among `users` vertices.
 */
export function createCountsStream(o: { store: TwoLevelMapStore; celebrity: Celebrity; followers: number; rate: number; backgroundRate: number; users: number; seed: number }) {
  const fanOut = createFanOutProcessor({ edgeTypes: [{ name: o.celebrity.edgeType }] });
  const background = addEdgeWorkload({ edgeType: o.celebrity.edgeType, users: o.users, zipfExponent: 1.1, seed: o.seed });
  const writes: LandedWrite[] = [];
  let truth = o.followers;
  let celebrityEvents = 0;
  let backgroundEvents = 0;
  let seq = 0;

  const apply = async (event: EdgeMutation): Promise<void> => {
    const out = fanOut.process(event, { get: () => undefined }, { wallClockMicros: BigInt(Date.now()) * 1000n });
    await o.store.mutateMany(allWrites(out));
    const stamp = BigInt(Date.now()) * 1000n;
    await o.store.mutateMany(out.followUps.map((f) => ({ ...f, writeTime: stamp })));
  };
  const event = (op: EdgeOp, src: string, dst: string): EdgeMutation => ({
    mutation_id: `counts-${++seq}`,
    op,
    edge_type: o.celebrity.edgeType,
    src,
    dst,
    event_time: BigInt(Date.now()) * 1000n,
    properties: {},
    property_keys: [],
  });

  /** Runs for `seconds`; celebrity writes one after another (their order is the truth's), the background beside them. */
  const run = async (seconds: number): Promise<void> => {
    const start = performance.now();
    const due = (rate: number) => Math.floor(((performance.now() - start) / 1000) * rate);
    let celebrityDone = 0;
    let backgroundDone = 0;
    const inFlight = new Set<Promise<void>>();
    while (performance.now() - start < seconds * 1000) {
      while (backgroundDone < due(o.backgroundRate) && inFlight.size < 64) {
        const edge = background.next().value as { src: string; dst: string };
        const p = apply(event(EdgeOp.ADD_EDGE, edge.src, edge.dst)).finally(() => inFlight.delete(p));
        inFlight.add(p);
        backgroundDone++;
        backgroundEvents++;
      }
      if (celebrityDone < due(o.rate)) {
        const k = celebrityEvents++;
        const follow = k % 2 === 0;
        await apply(follow ? event(EdgeOp.ADD_EDGE, `fan-new-${k}`, o.celebrity.id) : event(EdgeOp.REMOVE_EDGE, followerOf(o.celebrity, k), o.celebrity.id));
        truth += follow ? 1 : -1;
        writes.push({ landedAtMs: Date.now(), truth });
        celebrityDone++;
      } else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await Promise.all(inFlight);
  };
  return { run, writes, stats: () => ({ celebrityEvents, backgroundEvents }) };
}
