import type { EdgeLink, EdgeReader } from '../../reads/index.ts';
import { microsToIso, printJson } from '../readOutput.ts';

/** `edgestream edge <type> <src> <dst>`: the link src → dst as stored, or that there is none. */
export async function edgeCommand(reader: EdgeReader, args: { type: string; src: string; dst: string }, flags: { json: boolean }): Promise<EdgeLink | undefined> {
  const link = await reader.edge(args.type, args.src, args.dst);
  if (flags.json) printJson({ ...args, link: link ?? null });
  else if (link === undefined) console.log(`${args.type} ${args.src} -> ${args.dst}: no link`);
  else console.log(`${args.type} ${args.src} -> ${args.dst}: ${link.state} at ${microsToIso(link.time)} (mutation ${link.mutationId})`);
  return link;
}
