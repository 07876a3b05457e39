import type { EdgeReader, NeighbourPage } from '../../reads/index.ts';
import type { LinkDirection } from '../../sinks/namespaces/index.ts';
import { microsToIso, printJson } from '../readOutput.ts';

export interface RangeFlags {
  readonly low?: bigint;
  readonly high?: bigint;
  readonly limit: number;
  readonly cursor?: string;
  readonly json: boolean;
}

/** `edgestream range <type> <vertex> [out|in] --low --high`: one page of neighbours with edge time in [low, high), newest first. */
export async function rangeCommand(reader: EdgeReader, args: { type: string; vertex: string; direction: LinkDirection }, flags: RangeFlags): Promise<NeighbourPage> {
  const { type, vertex, direction } = args;
  const options = { limit: flags.limit, ...(flags.low === undefined ? {} : { low: flags.low }), ...(flags.high === undefined ? {} : { high: flags.high }), ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }) };
  const page = await reader.timeRange(type, vertex, direction, options);
  if (flags.json) {
    printJson({ ...args, low: flags.low ?? null, high: flags.high ?? null, items: page.items, cursor: page.cursor ?? null });
    return page;
  }
  for (const n of page.items) console.log(`${n.peer}\t${microsToIso(n.time)}\t${n.mutationId}`);
  const count = `${page.items.length} ${direction}-neighbour(s) of ${vertex} in the range`;
  const last = page.items.at(-1);
  const next = last === undefined ? `--cursor ${page.cursor}` : `--cursor ${page.cursor} (or --high ${last.time})`;
  console.log(page.cursor === undefined ? `${count}; no more` : `${count}; next page: ${next}`);
  return page;
}
