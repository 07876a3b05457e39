import type { EdgeReader, Traversal, TraversalHop } from '../../reads/index.ts';
import { printJson } from '../readOutput.ts';

/** `edgestream traverse <start> --hops follows:out,likes:in`: the vertices first reached at each hop. */
export async function traverseCommand(
  reader: EdgeReader,
  args: { start: string; hops: readonly TraversalHop[] },
  flags: { cap: number; concurrency: number; json: boolean },
): Promise<Traversal> {
  const result = await reader.traverse(args.start, args.hops, { perHopCap: flags.cap, concurrency: flags.concurrency });
  if (flags.json) {
    printJson({ start: args.start, hops: result.hops.map((h, i) => ({ ...args.hops[i], ...h })), truncated: result.truncated });
    return result;
  }
  result.hops.forEach((h, i) => {
    const hop = args.hops[i]!;
    const note = h.truncated ? `, truncated at --cap ${flags.cap}` : '';
    console.log(`hop ${i + 1} (${hop.type} ${hop.direction}): ${h.vertices.length} vertex(es)${note}`);
    for (const v of h.vertices) console.log(`  ${v}`);
  });
  return result;
}
