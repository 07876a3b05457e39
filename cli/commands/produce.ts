import { sendEdgeOp, type EdgeProducer } from '../../streams/producer/index.ts';
import { createProgress } from '../progress.ts';
import { readNdjsonOps, type NdjsonOp } from '../workload/ndjsonOps.ts';
import { syntheticGraph, type SyntheticGraphOptions, type WorkloadOp } from '../workload/syntheticGraph.ts';

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
    const p: Promise<unknown> = sendEdgeOp(producer, op).then(
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
