import type { EdgeReader } from '../../reads/index.ts';
import { propertyJson, type PropertyValue } from '../../sinks/namespaces/index.ts';
import { printJson, propertyText } from '../readOutput.ts';

/** `edgestream props <type> <src> <dst> [--keys a,b]`: the edge's properties, or only the named ones. */
export async function propsCommand(
  reader: EdgeReader,
  args: { type: string; src: string; dst: string },
  flags: { keys?: readonly string[]; json: boolean },
): Promise<Record<string, PropertyValue>> {
  const props = await reader.props(args.type, args.src, args.dst, flags.keys);
  const names = Object.keys(props).sort();
  if (flags.json) {
    printJson({ ...args, properties: Object.fromEntries(names.map((n) => [n, propertyJson(props[n] as PropertyValue)])) });
    return props;
  }
  for (const n of names) console.log(`${n} = ${propertyText(props[n] as PropertyValue)}`);
  if (names.length === 0) console.log(`no properties${flags.keys ? ` named ${flags.keys.join(', ')}` : ''} on ${args.type} ${args.src} -- ${args.dst}`);
  return props;
}
