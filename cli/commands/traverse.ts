import type { EdgeReader, Traversal, TraversalHop } from '../../reads/index.ts';
import { printJson } from '../readOutput.ts';

export interface TraverseFlags {
  readonly hops: TraversalHop[];
  readonly cap?: number;
  readonly concurrency?: number;
  readonly maxRows?: number;
  readonly maxQueries?: number;
  readonly deadline?: number;
  readonly json: boolean;
}

/** `edgestream traverse <start> --hops follows:out,likes:in`: the vertices first reached at each hop, its reads, and why a result is partial. */
export async function traverseCommand(reader: EdgeReader, args: { start: string; hops: readonly TraversalHop[] }, flags: TraverseFlags): Promise<Traversal> {
  const result = await reader.traverse(args.start, args.hops, {
    ...(flags.cap === undefined ? {} : { perHopCap: flags.cap }),
    ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
    ...(flags.maxRows === undefined ? {} : { maxRows: flags.maxRows }),
    ...(flags.maxQueries === undefined ? {} : { maxQueries: flags.maxQueries }),
    ...(flags.deadline === undefined ? {} : { deadlineMs: flags.deadline }),
  });
  if (flags.json) {
    const { partial, stats, truncated } = result;
    printJson({ start: args.start, hops: result.hops.map((h, i) => ({ ...args.hops[i], ...h })), truncated, ...(partial === undefined ? {} : { partial }), stats });
    return result;
  }
  result.hops.forEach((h, i) => {
    const hop = args.hops[i]!;
    const note = h.truncated ? ', truncated' : '';
    console.log(`hop ${i + 1} (${hop.type} ${hop.direction}): ${h.vertices.length} vertex(es)${note}; ${h.stats.queries} queries, ${h.stats.rowsRead} rows, ${h.stats.replicaGroups} replica set(s)`);
    for (const v of h.vertices) console.log(`  ${v}`);
  });
  if (result.partial !== undefined) console.log(`partial: ${result.partial.reason} at hop ${result.partial.hop + 1}`);
  console.log(`read: ${result.stats.queries} queries, ${result.stats.rowsRead} rows`);
  return result;
}
