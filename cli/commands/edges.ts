import type { EdgeGet, EdgeReader } from '../../reads/index.ts';
import { propertyJson, type PropertyValue } from '../../sinks/namespaces/index.ts';
import { microsToIso, printJson, propertyText } from '../readOutput.ts';

/** `edgestream edges <type> <src> <dst...> [--keys a,b]`: the links src → each dst in one read, with the named properties. */
export async function edgesCommand(reader: EdgeReader, args: { type: string; src: string; dsts: readonly string[] }, flags: { keys?: readonly string[]; json: boolean }): Promise<EdgeGet[]> {
  const got = await reader.edges(args.type, args.src, args.dsts, flags.keys === undefined ? {} : { keys: flags.keys });
  const propsJson = (props: Record<string, PropertyValue>) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, propertyJson(v)]));
  if (flags.json) {
    printJson({ type: args.type, src: args.src, edges: got.map(({ dst, link, props }) => ({ dst, link: link ?? null, ...(props === undefined ? {} : { properties: propsJson(props) }) })) });
    return got;
  }
  for (const { dst, link, props } of got) {
    const state = link === undefined ? 'no link' : `${link.state} at ${microsToIso(link.time)} (mutation ${link.mutationId})`;
    const shown = props === undefined ? '' : `\t${Object.entries(props).map(([k, v]) => `${k} = ${propertyText(v)}`).join(', ') || 'no such properties'}`;
    console.log(`${args.src} -> ${dst}: ${state}${shown}`);
  }
  return got;
}
