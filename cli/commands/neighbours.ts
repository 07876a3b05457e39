import type { EdgeReader, NeighbourOrder, NeighbourPage } from '../../reads/index.ts';
import type { LinkDirection } from '../../sinks/namespaces/index.ts';
import { microsToIso, printJson } from '../readOutput.ts';

export interface NeighbourFlags {
  readonly limit: number;
  readonly cursor?: string;
  readonly order?: NeighbourOrder;
  readonly json: boolean;
}

/** `edgestream out|in <type> <vertex>`: one page of neighbours, and the cursor of the next. */
export async function neighboursCommand(reader: EdgeReader, direction: LinkDirection, args: { type: string; vertex: string }, flags: NeighbourFlags): Promise<NeighbourPage> {
  const options = { limit: flags.limit, ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }), ...(flags.order === undefined ? {} : { order: flags.order }) };
  const page = direction === 'out' ? await reader.out(args.type, args.vertex, options) : await reader.in(args.type, args.vertex, options);
  if (flags.json) {
    printJson({ ...args, direction, items: page.items, cursor: page.cursor ?? null });
    return page;
  }
  for (const n of page.items) console.log(`${n.peer}\t${microsToIso(n.time)}\t${n.mutationId}`);
  const count = `${page.items.length} ${direction}-neighbour(s) of ${args.vertex}`;
  console.log(page.cursor === undefined ? `${count}; no more` : `${count}; next page: --cursor ${page.cursor}`);
  return page;
}
