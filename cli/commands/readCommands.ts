import { Option, type Command } from 'commander';
import type { EdgeReader, NeighbourOrder } from '../../reads/index.ts';
import type { LinkDirection } from '../../sinks/namespaces/index.ts';
import type { GlobalFlags } from '../commandContext.ts';
import { withCommandContext } from '../lazyCommandContext.ts';
import { microsFlag, parseHops, parseKeys, positiveIntFlag, withFlagNames } from '../readFlags.ts';
import type { RangeFlags } from './range.ts';
import type { TraverseFlags } from './traverse.ts';

/** Opens the store and a reader for one command, then restates reader argument errors as flag errors (loaded when a command runs). */
const withReader = (globals: () => GlobalFlags, fn: (reader: EdgeReader) => Promise<unknown>): Promise<void> =>
  withCommandContext(globals(), async (ctx) => {
    const { openReader } = await import('../openReader.ts');
    const opened = await openReader(ctx);
    try {
      await withFlagNames(() => fn(opened.reader));
    } finally {
      await opened.close();
    }
  });

const json = (c: Command) => c.option('--json', 'one JSON document on stdout', false);

/** The read path's commands: edge, edges, out, in, range, props, count, traverse (reads/README.md). */
export function registerReadCommands(program: Command, globals: () => GlobalFlags): void {
  json(program.command('edge').description('the link <src> -> <dst>: ACTIVE or REMOVED, its time and mutation id').argument('<type>').argument('<src>').argument('<dst>')).action(
    (type: string, src: string, dst: string, o: { json: boolean }) => withReader(globals, async (r) => (await import('./edge.ts')).edgeCommand(r, { type, src, dst }, o)),
  );

  json(
    program
      .command('edges')
      .description('the links <src> -> each <dst> in one read (up to 128), with the named properties of each')
      .argument('<type>')
      .argument('<src>')
      .argument('<dst...>')
      .option('--keys <a,b>', 'also read these properties of each edge found', parseKeys),
  ).action((type: string, src: string, dsts: string[], o: { keys?: string[]; json: boolean }) => withReader(globals, async (r) => (await import('./edges.ts')).edgesCommand(r, { type, src, dsts }, o)));

  json(
    program
      .command('range')
      .description('a page of the neighbours of <vertex> with edge time in [--low, --high), newest first (ACTIVE links)')
      .argument('<type>')
      .argument('<vertex>')
      .addArgument(program.createArgument('[direction]', 'out (default) or in').choices(['out', 'in']).default('out'))
      .option('--low <µs>', 'oldest edge time included (default 0)', microsFlag('--low'))
      .option('--high <µs>', "edge time excluded, and every later one (default: none); page on with the last item's time", microsFlag('--high'))
      .option('--limit <n>', 'most neighbours on this page (1..10000)', positiveIntFlag('--limit'), 20)
      .option('--cursor <cursor>', 'continue after the page that printed this cursor'),
  ).action((type: string, vertex: string, direction: LinkDirection, o: RangeFlags) => withReader(globals, async (r) => (await import('./range.ts')).rangeCommand(r, { type, vertex, direction }, o)));

  for (const direction of ['out', 'in'] as const) {
    const what = direction === 'out' ? 'vertices <vertex> links to' : 'vertices linking to <vertex>';
    json(
      program
        .command(direction)
        .description(`a page of ${what} (ACTIVE links), newest first or by peer id`)
        .argument('<type>')
        .argument('<vertex>')
        .option('--limit <n>', 'most neighbours on this page (1..5000)', positiveIntFlag('--limit'), 20)
        .option('--cursor <cursor>', 'continue after the page that printed this cursor')
        .addOption(new Option('--order <order>', 'newest (default) or peer; a cursor keeps its own').choices(['newest', 'peer'])),
    ).action((type: string, vertex: string, o: { limit: number; cursor?: string; order?: NeighbourOrder; json: boolean }) =>
      withReader(globals, async (r) => (await import('./neighbours.ts')).neighboursCommand(r, direction as LinkDirection, { type, vertex }, o)),
    );
  }

  json(
    program
      .command('props')
      .description("the edge's properties (shared by <src> -> <dst> and <dst> -> <src>)")
      .argument('<type>')
      .argument('<src>')
      .argument('<dst>')
      .option('--keys <a,b>', 'read only these properties', parseKeys),
  ).action((type: string, src: string, dst: string, o: { keys?: string[]; json: boolean }) => withReader(globals, async (r) => (await import('./props.ts')).propsCommand(r, { type, src, dst }, o)));

  json(
    program
      .command('count')
      .description('recounted degrees of <vertex> (a projection: may lag the links)')
      .argument('<type>')
      .argument('<vertex>')
      .addArgument(program.createArgument('[direction]', 'out or in (default: both)').choices(['out', 'in'])),
  ).action((type: string, vertex: string, direction: LinkDirection | undefined, o: { json: boolean }) =>
    withReader(globals, async (r) => (await import('./count.ts')).countCommand(r, { type, vertex, ...(direction === undefined ? {} : { direction }) }, o)),
  );

  json(
    program
      .command('traverse')
      .description('breadth-first hops from <start>, each hop capped, within a read budget and deadline')
      .argument('<start>')
      .requiredOption('--hops <hops>', 'hops in order, <type>:out|in[:cap],... e.g. follows:out:100,likes:in', parseHops)
      .option('--cap <n>', 'most new vertices per hop (default: reads.traversal.perHopCap)', positiveIntFlag('--cap'))
      .option('--concurrency <n>', 'frontier reads in flight per replica set (default: reads.traversal.concurrencyPerReplicaSet)', positiveIntFlag('--concurrency'))
      .option('--max-rows <n>', 'most link cells read in total (default: reads.maxRows)', positiveIntFlag('--max-rows'))
      .option('--max-queries <n>', 'most partition reads in total (default: reads.maxQueries)', positiveIntFlag('--max-queries'))
      .option('--deadline <ms>', 'stop and print what was found after this long (default: reads.deadlineMs)', positiveIntFlag('--deadline')),
  ).action((start: string, o: TraverseFlags) =>
    withReader(globals, async (r) => (await import('./traverse.ts')).traverseCommand(r, { start, hops: o.hops }, o)),
  );
}
