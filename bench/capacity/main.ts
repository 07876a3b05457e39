#!/usr/bin/env node
// npm run capacity — the capacity model (docs/capacity.md): partitions per namespace, wide
// partitions and their splits, split-directory memory, Kafka, processors, Cassandra at RF 3 and
// traversal fan-out for a graph's scale, calibrated with bench/results/*.json. No I/O but
// reading those files; runs in well under a second.
import path from 'node:path';
import { parseEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { REPO_ROOT } from '../shared/benchEnvironment.ts';
import { CapacityArgError, parseCapacityArgs, USAGE, type CapacityArgs } from './args.ts';
import { estimateCapacity, type Scale } from './capacityModel.ts';
import { loadCalibration } from './loadCalibration.ts';
import { formatCalibration, formatEstimate, formatSweep } from './report.ts';

/** The headline scale points: 1 B → 100 B vertices, 10 B → 10 T edges, and Netflix's RDG (8 B nodes, 150 B edges). */
export const SWEEP: readonly { readonly vertices: number; readonly edges: number }[] = [
  { vertices: 1e9, edges: 1e10 },
  { vertices: 8e9, edges: 1.5e11 },
  { vertices: 1e10, edges: 1e11 },
  { vertices: 1e10, edges: 1e12 },
  { vertices: 1e11, edges: 1e12 },
  { vertices: 1e11, edges: 1e13 },
];

function main(args: CapacityArgs): void {
  if (args.help) return void process.stdout.write(USAGE);
  const config = parseEdgestreamConfig({ edgeTypes: [{ name: 'follows' }] }, 'capacity');
  const calibration = loadCalibration(path.join(REPO_ROOT, 'bench/results'), args.calibration);
  const scaleOf = (vertices: number, edges: number): Scale => ({
    vertices,
    edges,
    zipfIn: args.zipfIn,
    zipfOut: args.zipfOut,
    ingestLinksPerSecond: args.ingestLinksPerSecond,
    opsPerSecond: args.opsPerSecond,
    propsPerEdge: args.propsPerEdge,
    hops: args.hops,
    perHopCap: args.perHopCap ?? config.reads.traversal.perHopCap,
  });
  const points = args.sweep ? SWEEP : [{ vertices: args.vertices, edges: args.edges }];
  const estimates = points.map((p) => estimateCapacity(scaleOf(p.vertices, p.edges), config.wide, calibration));
  if (args.json) return void process.stdout.write(JSON.stringify({ calibration, wide: config.wide, estimates }, null, 2) + '\n');
  const body = args.sweep ? formatSweep(estimates, args.markdown) : estimates.map((e) => formatEstimate(e, args.markdown)).join('\n\n');
  process.stdout.write(`${body}\n\nInputs (${calibration.profile} calibration; wide.thresholdRows ${config.wide.thresholdRows}, thresholdBytes ${config.wide.thresholdBytes}, targetBucketBytes ${config.wide.targetBucketBytes}, maxBuckets ${config.wide.maxBuckets}):\n${formatCalibration(calibration, args.markdown)}\n`);
}

try {
  main(parseCapacityArgs(process.argv.slice(2)));
} catch (err) {
  if (!(err instanceof CapacityArgError)) throw err;
  process.stderr.write(`capacity: ${err.message}\n\n${USAGE}`);
  process.exitCode = 2;
}
