import type { EdgeProducer, SentMutation } from '../../streams/producer/index.ts';
import { createProgress } from '../progress.ts';
import { readNdjsonOps, type NdjsonOp } from '../workload/ndjsonOps.ts';
import { syntheticGraph, type SyntheticGraphOptions, type WorkloadOp } from '../workload/syntheticGraph.ts';

/** Sends one op through the SDK (which validates it and fills ids and times). */
export function sendOp(producer: EdgeProducer, op: NdjsonOp | WorkloadOp): Promise<SentMutation> {
  switch (op.op) {
    case 'ADD_EDGE':
      return producer.addEdge({ ...op, properties: op.properties ?? {} });
    case 'REMOVE_EDGE':
      return producer.removeEdge(op);
    case 'SET_PROPERTIES':
      return producer.setProperties(op);
    case 'REMOVE_PROPERTIES':
      return producer.removeProperties(op);
    case 'REMOVE_NODE':
      return producer.removeNode(op);
    default: {
      const never: never = op;
      throw new Error(`unknown op ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Publishes ops with bounded concurrency (the SDK batches them), showing progress.
 * Returns the number sent; the first failure stops the run and is thrown.
 */
export async function publishOps(producer: EdgeProducer, ops: AsyncIterable<NdjsonOp | WorkloadOp> | Iterable<NdjsonOp | WorkloadOp>, total?: number): Promise<number> {
  const progress = createProgress('produce', total);
  const inFlight = new Set<Promise<unknown>>();
  let sent = 0;
  let failure: unknown;
  for await (const op of ops) {
    if (failure !== undefined) break;
    const p: Promise<unknown> = sendOp(producer, op).then(
      () => {
        sent++;
        progress.add(1);
      },
      (e: unknown) => {
        failure ??= e;
      },
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    if (inFlight.size >= 2_000) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  await producer.flush();
  progress.done();
  if (failure !== undefined) throw failure;
  return sent;
}

export type ProduceSource = { readonly file: string } | { readonly synthetic: SyntheticGraphOptions };

export async function produceCommand(producer: EdgeProducer, source: ProduceSource): Promise<number> {
  if ('file' in source) return publishOps(producer, readNdjsonOps(source.file));
  return publishOps(producer, syntheticGraph(source.synthetic), source.synthetic.events);
}
