import type { EdgeReader } from '../../reads/index.ts';
import type { LinkDirection } from '../../sinks/namespaces/index.ts';
import { printJson } from '../readOutput.ts';

/** `edgestream count <type> <vertex> [direction]`: recounted degrees (both directions unless one is named). */
export async function countCommand(
  reader: EdgeReader,
  args: { type: string; vertex: string; direction?: LinkDirection },
  flags: { json: boolean },
): Promise<Partial<Record<LinkDirection, bigint>>> {
  const directions: LinkDirection[] = args.direction === undefined ? ['out', 'in'] : [args.direction];
  const counts = Object.fromEntries(await Promise.all(directions.map(async (d) => [d, await reader.count(args.type, args.vertex, d)] as const)));
  if (flags.json) printJson({ type: args.type, vertex: args.vertex, ...counts });
  else for (const d of directions) console.log(`${args.type} ${d}-degree of ${args.vertex}: ${counts[d]}`);
  if (!flags.json) console.error('(counts are recounted periodically and may lag the links)');
  return counts;
}
