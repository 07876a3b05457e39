import { parseArgs } from 'node:util';
import { intFlag } from '../shared/intFlag.ts';

/** Flags of `bench:hot`. Every default is the committed bench configuration. */
export interface HotBenchArgs {
  readonly links: number;
  /** Links per source in the spread variant: the same links from links / fanoutDegree sources. */
  readonly fanoutDegree: number;
  readonly repeats: number;
  readonly partitions: number;
  /** Sources of the spread variant whose count and newest page are checked (the hot variant has one). */
  readonly checkSources: number;
  readonly pageLimit: number;
  readonly settleTimeoutSeconds: number;
  /** Chunks in flight of the raw phase (bench/shared/rawIngest); 0 skips it. */
  readonly rawChunksInFlight: number;
  readonly keep: boolean;
  readonly out: string | undefined;
  readonly help: boolean;
}

export const DEFAULT_LINKS = 1_000_000;

export const USAGE = `npm run bench:hot -- [flags]

One hot source against the same links spread over many sources, through real
\`edgestream run\` processors (every stage), and against the raw driver writing the
hot source's rows in the same run: drain rate, CPU per link by process, repairs,
DLQ, and the hot source's count and newest page checked. See bench/hot/README.md.

  --links <n>                ADD_EDGE events per phase (default ${DEFAULT_LINKS}; issue 24's stock source: 4000000;
                             --links 20000 --repeats 1 for a smoke run)
  --fanout-degree <n>        links per source in the spread variant (default 10)
  --repeats <n>              hot, spread and raw phases each, interleaved (default 3)
  --partitions <n>           input topic partitions (default 6)
  --check-sources <n>        spread sources whose count and newest page are checked (default 20)
  --page-limit <n>           size of the newest-first page checked (default 50)
  --settle-timeout <s>       give up waiting for a drain, the repairs or the counts after this long (default 900)
  --raw-chunks-in-flight <n> chunks in flight of the raw phase, the raw driver writing the hot source's rows in the
                             pipeline's batch shape (default 24 = the pipeline's 6 partitions × 4 chunks; 0 skips it)
  --keep                     keep the keyspace and topics (default: drop/delete them)
  --out <file>               result JSON (default bench/results/hot-latest.json for --links >= ${DEFAULT_LINKS},
                             else bench/results/hot-small.json)
`;

export function parseHotArgs(argv: readonly string[]): HotBenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      links: { type: 'string' },
      'fanout-degree': { type: 'string' },
      repeats: { type: 'string' },
      partitions: { type: 'string' },
      'check-sources': { type: 'string' },
      'page-limit': { type: 'string' },
      'settle-timeout': { type: 'string' },
      'raw-chunks-in-flight': { type: 'string' },
      keep: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const links = intFlag('links', values.links, DEFAULT_LINKS, 1);
  return {
    links,
    fanoutDegree: intFlag('fanout-degree', values['fanout-degree'], 10, 1, links),
    repeats: intFlag('repeats', values.repeats, 3, 1, 100),
    partitions: intFlag('partitions', values.partitions, 6, 1, 1_024),
    checkSources: intFlag('check-sources', values['check-sources'], 20, 1),
    pageLimit: intFlag('page-limit', values['page-limit'], 50, 1, 1_000),
    settleTimeoutSeconds: intFlag('settle-timeout', values['settle-timeout'], 900, 1),
    rawChunksInFlight: intFlag('raw-chunks-in-flight', values['raw-chunks-in-flight'], 24, 0, 1_024),
    keep: values.keep ?? false,
    out: values.out,
    help: values.help ?? false,
  };
}
