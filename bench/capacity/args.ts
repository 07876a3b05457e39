/**
 * Flags of `npm run capacity`. Counts take K/M/B/T suffixes (10T = 10^13), exponents, and `_`
 * separators; every error names the flag and what it accepts.
 */
import { parseArgs } from 'node:util';
import type { Scale } from './capacityModel.ts';

export const USAGE = `npm run capacity -- --vertices <n> --edges <n> --zipf <s> [options]
       npm run capacity -- --sweep [options]

  --vertices <n>        vertices (e.g. 1B, 100B, 8e9)
  --edges <n>           edges (e.g. 10B, 10T)
  --zipf <s>            Zipf exponent of in-degrees, in (0, 4]
  --zipf-out <s>        Zipf exponent of out-degrees (default: --zipf)
  --ingest <links/s>    target ingest rate (default 1M)
  --ops <ops/s>         LinkBench-mix operations per second through the server (default 0)
  --props-per-edge <n>  property cells per edge (default 1, as bench:ingest)
  --hops <n>            traversal hops (default 2)
  --hop-cap <n>         per-hop cap (default reads.traversal.perHopCap)
  --calibration <p>     per-link CPU from "mixed" (bench:mixed load, every stage; default) or "ingest" (bench:ingest, ADD only)
  --sweep               the headline table: 1B→100B vertices, 10B→10T edges, and Netflix's RDG
  --markdown            print tables as Markdown
  --json                print the estimate as JSON
`;

/** One estimate's scale (the sweep replaces vertices and edges), plus what to print. */
export interface CapacityArgs extends Omit<Scale, 'perHopCap'> {
  /** Absent: `reads.traversal.perHopCap` of the config. */
  readonly perHopCap: number | undefined;
  readonly calibration: 'mixed' | 'ingest';
  readonly sweep: boolean;
  readonly markdown: boolean;
  readonly json: boolean;
  readonly help: boolean;
}

export class CapacityArgError extends Error {}

const SUFFIXES: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9, g: 1e9, t: 1e12 };

/** A count flag: `1_000`, `1e9`, `100B`, `10T`; an error names the flag and the range. */
export function countFlag(name: string, raw: string | undefined, fallback: number | undefined, min: number, max: number): number {
  if (raw === undefined) {
    if (fallback === undefined) throw new CapacityArgError(`--${name} is required`);
    return fallback;
  }
  const m = /^([0-9][0-9_]*(?:\.[0-9]+)?(?:e[0-9]+)?)([kmbgt]?)$/i.exec(raw.trim());
  const n = m ? Number(m[1]?.replace(/_/g, '')) * (SUFFIXES[(m[2] ?? '').toLowerCase()] ?? 1) : NaN;
  if (!Number.isFinite(n) || n < min || n > max) throw new CapacityArgError(`--${name} must be a number in [${min}, ${max.toExponential()}] (suffixes K, M, B, T), got "${raw}"`);
  return n;
}

function integerFlag(name: string, raw: string | undefined, fallback: number | undefined, min: number, max: number): number {
  const n = countFlag(name, raw, fallback, min, max);
  if (!Number.isInteger(n)) throw new CapacityArgError(`--${name} must be an integer, got "${raw}"`);
  return n;
}

function exponentFlag(name: string, raw: string | undefined, fallback: number | undefined): number {
  if (raw === undefined) {
    if (fallback === undefined) throw new CapacityArgError(`--${name} is required`);
    return fallback;
  }
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 4) throw new CapacityArgError(`--${name} must be a Zipf exponent in (0, 4], got "${raw}"`);
  return n;
}

export function parseCapacityArgs(argv: readonly string[]): CapacityArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        vertices: { type: 'string' },
        edges: { type: 'string' },
        zipf: { type: 'string' },
        'zipf-out': { type: 'string' },
        ingest: { type: 'string' },
        ops: { type: 'string' },
        'props-per-edge': { type: 'string' },
        hops: { type: 'string' },
        'hop-cap': { type: 'string' },
        calibration: { type: 'string' },
        sweep: { type: 'boolean', default: false },
        markdown: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (err) {
    throw new CapacityArgError((err as Error).message);
  }
  const help = values.help;
  const sweep = values.sweep;
  const calibration = values.calibration ?? 'mixed';
  if (calibration !== 'mixed' && calibration !== 'ingest') throw new CapacityArgError(`--calibration must be "mixed" or "ingest", got "${calibration}"`);
  // The sweep sets vertices and edges itself; a single estimate needs them.
  const required = help || sweep ? 1 : undefined;
  const vertices = countFlag('vertices', values.vertices, required, 1, 1e15);
  const edges = countFlag('edges', values.edges, required, 1, 1e16);
  const zipfIn = exponentFlag('zipf', values.zipf, help || sweep ? 0.9 : undefined);
  return {
    vertices,
    edges,
    zipfIn,
    zipfOut: exponentFlag('zipf-out', values['zipf-out'], zipfIn),
    ingestLinksPerSecond: countFlag('ingest', values.ingest, 1e6, 1, 1e10),
    opsPerSecond: countFlag('ops', values.ops, 0, 0, 1e10),
    propsPerEdge: integerFlag('props-per-edge', values['props-per-edge'], 1, 0, 64),
    hops: integerFlag('hops', values.hops, 2, 1, 6),
    perHopCap: values['hop-cap'] === undefined ? undefined : integerFlag('hop-cap', values['hop-cap'], undefined, 1, 1e6),
    calibration,
    sweep,
    markdown: values.markdown,
    json: values.json,
    help,
  };
}
