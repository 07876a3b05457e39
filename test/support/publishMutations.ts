import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { EdgeProducer, SentMutation } from '../../streams/producer/index.ts';

/**
 * Sends one EdgeMutation through the producer SDK with its own mutation id
 * and event time, so a test knows exactly what was published and can model it.
 */
export function sendMutation(producer: EdgeProducer, e: EdgeMutation): Promise<SentMutation> {
  const common = { mutationId: e.mutation_id, eventTime: e.event_time };
  const edge = { ...common, type: e.edge_type, src: e.src, dst: e.dst };
  switch (e.op) {
    case 'ADD_EDGE':
      return producer.addEdge({ ...edge, ...edgeFields(e), properties: e.properties });
    case 'HIDE_EDGE':
      return producer.hideEdge({ ...edge, ...edgeFields(e) });
    case 'UNHIDE_EDGE':
      return producer.unhideEdge({ ...edge, ...edgeFields(e) });
    case 'REMOVE_EDGE':
      return producer.removeEdge(edge);
    case 'SET_PROPERTIES':
      return producer.setProperties({ ...edge, properties: e.properties });
    case 'REMOVE_PROPERTIES':
      return producer.removeProperties({ ...edge, keys: e.property_keys });
    case 'REMOVE_NODE':
      return producer.removeNode({ ...common, vertex: e.src });
    default: {
      const never: never = e.op;
      throw new Error(`unknown op ${String(never)}`);
    }
  }
}

/** The optional edge time and data of a link op, as the SDK takes them. */
function edgeFields(e: EdgeMutation): { edgeTime?: bigint; data?: Uint8Array } {
  return { ...(e.edge_time == null ? {} : { edgeTime: e.edge_time }), ...(e.data == null ? {} : { data: e.data }) };
}

/**
 * Publishes mutations in order through the SDK (which batches and keeps the
 * order per key), at most `maxInFlight` unacknowledged, then flushes. The
 * first failure is thrown. `onSent` sees the running count.
 */
export async function publishMutations(
  producer: EdgeProducer,
  events: Iterable<EdgeMutation>,
  { maxInFlight = 2_000, onSent }: { maxInFlight?: number; onSent?: (sent: number) => void } = {},
): Promise<number> {
  const inFlight = new Set<Promise<unknown>>();
  let sent = 0;
  let failure: { error: unknown } | undefined;
  for (const e of events) {
    if (failure) break;
    const p: Promise<unknown> = sendMutation(producer, e).then(
      () => onSent?.(++sent),
      (error: unknown) => void (failure ??= { error }),
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    if (inFlight.size >= maxInFlight) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  await producer.flush();
  if (failure) throw failure.error;
  return sent;
}
