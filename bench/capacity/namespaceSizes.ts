/**
 * Partitions, rows and logical bytes per Cassandra namespace of one edge type (docs/architecture.md
 * §5 "Namespaces per edge type" and "Global namespaces"), and for the splittable ones how many
 * partitions cross the wide threshold and the splits and buckets that follow (§6).
 */
import { DEGREE_DIRTY_SHARDS } from '../../sinks/namespaces/degreeDirtyMark.ts';
import { edgesOfVerticesWithDegreeAtLeast, verticesWithDegreeAtLeast, verticesWithEdges, type ZipfDegrees } from './zipfDegrees.ts';

/** The wide settings of the validated config (`wide.*`). */
export interface WideSettings {
  readonly thresholdBytes: number;
  readonly thresholdRows: number;
  readonly targetBucketBytes: number;
  readonly maxBuckets: number;
  readonly directoryRebuildMs: number;
}

export interface RowSizes {
  readonly linkRowBytes: number;
  readonly recentRowBytes: number;
  readonly propsRowBytes: number;
  readonly degreesRowBytes: number;
  readonly partitionOverheadBytes: number;
  readonly wideRowRecordBytes: number;
}

export interface Splits {
  /** Rows a full read of the partition must reach to cross `thresholdRows` or `thresholdBytes`. */
  readonly thresholdRows: number;
  readonly widePartitions: number;
  /** Rows held by the wide partitions: what the split copies (the original is never deleted). */
  readonly rowsInWide: number;
  readonly buckets: number;
  /** The largest partition's bucket after its split: rows × bytes / its bucket count. */
  readonly largestBucketBytes: number;
}

export interface NamespaceSize {
  readonly name: string;
  readonly partitions: number;
  readonly rows: number;
  readonly logicalBytes: number;
  readonly largestPartitionBytes: number;
  readonly strategy?: 'hash' | 'range';
  readonly splits?: Splits;
}

/** Recounter: vertices with at most this many links are counted from their links and never mirrored (createRecounter `directCountMaxCells`). */
export const MIRROR_MIN_LINKS = 129;
/** degree_mirror per mirrored (vertex, direction) besides its flags: a count per non-empty bucket of 1 024, 32 group counts, the marker. */
const MIRROR_BUCKETS = 1024;
const MIRROR_FIXED_ROWS = 32 + 1;

/** degree_mirror rows of the vertices of one direction: a flag per link, a count per non-empty bucket (≤ min(degree, 1 024)), the fixed rows. */
function mirrorRows(z: ZipfDegrees): number {
  const mirrored = verticesWithDegreeAtLeast(z, MIRROR_MIN_LINKS);
  const full = verticesWithDegreeAtLeast(z, MIRROR_BUCKETS);
  const flags = edgesOfVerticesWithDegreeAtLeast(z, MIRROR_MIN_LINKS);
  const bucketCounts = flags - edgesOfVerticesWithDegreeAtLeast(z, MIRROR_BUCKETS) + full * MIRROR_BUCKETS;
  return flags + bucketCounts + mirrored * MIRROR_FIXED_ROWS;
}

/** Buckets of a split of `bytes`: ceil(bytes / target), at least 2, at most maxBuckets (§6 "The chain"). */
export function bucketsFor(bytes: number, wide: WideSettings): number {
  return Math.min(wide.maxBuckets, Math.max(2, Math.ceil(bytes / wide.targetBucketBytes)));
}

/** The splits of a link or index namespace keyed by one endpoint. */
export function splitsOf(z: ZipfDegrees, rowBytes: number, wide: WideSettings): Splits {
  const thresholdRows = Math.min(wide.thresholdRows, Math.ceil(wide.thresholdBytes / rowBytes));
  const widePartitions = verticesWithDegreeAtLeast(z, thresholdRows);
  // Σ clamp(ceil(x), 2, M) over the wide partitions = 2·W + Σ_{k=2}^{M−1} #(x > k), x = bytes / target.
  let buckets = 2 * widePartitions;
  for (let k = 2; k < wide.maxBuckets; k++) buckets += Math.min(widePartitions, verticesWithDegreeAtLeast(z, (k * wide.targetBucketBytes) / rowBytes));
  const largestBytes = z.top * rowBytes;
  return {
    thresholdRows,
    widePartitions,
    rowsInWide: widePartitions === 0 ? 0 : edgesOfVerticesWithDegreeAtLeast(z, thresholdRows),
    buckets,
    largestBucketBytes: widePartitions === 0 ? 0 : largestBytes / bucketsFor(largestBytes, wide),
  };
}

export interface GraphShape {
  readonly out: ZipfDegrees;
  readonly in: ZipfDegrees;
  readonly propsPerEdge: number;
  readonly ingestLinksPerSecond: number;
}

/** Every namespace of one edge type `T` plus the global ones, for a graph of that shape. */
export function namespaceSizes(g: GraphShape, rows: RowSizes, wide: WideSettings): NamespaceSize[] {
  const edges = g.out.edges;
  const vertices = g.out.vertices;
  const sources = verticesWithEdges(g.out);
  const targets = verticesWithEdges(g.in);
  const overhead = (partitions: number) => partitions * rows.partitionOverheadBytes;
  const keyed = (name: string, z: ZipfDegrees, partitions: number, rowBytes: number, strategy: 'hash' | 'range'): NamespaceSize => ({
    name,
    partitions,
    rows: edges,
    logicalBytes: edges * rowBytes + overhead(partitions),
    largestPartitionBytes: z.top * rowBytes,
    strategy,
    splits: splitsOf(z, rowBytes, wide),
  });
  const links = [
    keyed('T_out', g.out, sources, rows.linkRowBytes, 'hash'),
    keyed('T_out_recent', g.out, sources, rows.recentRowBytes, 'range'),
    keyed('T_in', g.in, targets, rows.linkRowBytes, 'hash'),
    keyed('T_in_recent', g.in, targets, rows.recentRowBytes, 'range'),
  ];
  const pairs = g.propsPerEdge > 0 ? edges : 0;
  const propsRows = edges * g.propsPerEdge;
  // Independent in- and out-ranks: a vertex has no edge with probability P(no in)·P(no out).
  const withAnyEdge = vertices - ((vertices - targets) * (vertices - sources)) / vertices;
  const mirrored = verticesWithDegreeAtLeast(g.out, MIRROR_MIN_LINKS) + verticesWithDegreeAtLeast(g.in, MIRROR_MIN_LINKS);
  const mirrorRowCount = mirrorRows(g.out) + mirrorRows(g.in);
  const splitCounts = links.map((n) => n.splits?.widePartitions ?? 0);
  const totalSplits = splitCounts.reduce((a, b) => a + b, 0);
  const splitRows = links.reduce((a, n) => a + (n.splits?.rowsInWide ?? 0), 0);
  const splitBytes = links.reduce((a, n) => a + (n.splits?.rowsInWide ?? 0) * (n.strategy === 'hash' ? rows.linkRowBytes : rows.recentRowBytes), 0);
  const buckets = links.reduce((a, n) => a + (n.splits?.buckets ?? 0), 0);
  return [
    ...links,
    { name: 'T_props', partitions: pairs, rows: propsRows, logicalBytes: propsRows * rows.propsRowBytes + overhead(pairs), largestPartitionBytes: pairs > 0 ? 2 * g.propsPerEdge * rows.propsRowBytes : 0 },
    { name: 'degrees', partitions: withAnyEdge, rows: sources + targets, logicalBytes: (sources + targets) * rows.degreesRowBytes + overhead(withAnyEdge), largestPartitionBytes: 2 * rows.degreesRowBytes },
    {
      name: 'degree_mirror',
      partitions: mirrored,
      rows: mirrorRowCount,
      logicalBytes: mirrorRowCount * rows.linkRowBytes + overhead(mirrored),
      largestPartitionBytes: (Math.max(g.out.top, g.in.top) + MIRROR_BUCKETS + MIRROR_FIXED_ROWS) * rows.linkRowBytes,
    },
    // Rows in flight: each link's 2 intents and 2 marks live about one recount interval (10 s); see pendingDirtyRows.
    { name: 'degree_dirty', partitions: DEGREE_DIRTY_SHARDS, rows: pendingDirtyRows(g.ingestLinksPerSecond), logicalBytes: pendingDirtyRows(g.ingestLinksPerSecond) * DIRTY_ROW_BYTES, largestPartitionBytes: (pendingDirtyRows(g.ingestLinksPerSecond) * DIRTY_ROW_BYTES) / DEGREE_DIRTY_SHARDS },
    {
      name: 'wide_rows',
      partitions: splitCounts.filter((n) => n > 0).length,
      rows: totalSplits,
      logicalBytes: totalSplits * rows.wideRowRecordBytes,
      largestPartitionBytes: Math.max(0, ...splitCounts) * rows.wideRowRecordBytes,
    },
    { name: 'T_*_split (buckets)', partitions: buckets, rows: splitRows, logicalBytes: splitBytes + overhead(buckets), largestPartitionBytes: Math.max(0, ...links.map((n) => n.splits?.largestBucketBytes ?? 0)) },
  ];
}

/** Recount interval the dirty marks wait for (runtime.recountIntervalMs default 10 s). */
const RECOUNT_INTERVAL_SECONDS = 10;
/** A mark's key: type ␀ dir ␀ vertex ␀ peer ␀ mutation id (~20 B ids, a 36-char mutation id), empty value. */
const DIRTY_ROW_BYTES = 80;
/** Cells each link writes to degree_dirty: two intents and two marks; each later deleted (a tombstone). */
export const DIRTY_CELLS_PER_LINK = 4;

/** Marks and intents pending at a steady ingest rate: each lives about one recount interval. */
export function pendingDirtyRows(linksPerSecond: number): number {
  return linksPerSecond * DIRTY_CELLS_PER_LINK * RECOUNT_INTERVAL_SECONDS;
}

/** Cell writes (the cells and their deletions) per second on each degree_dirty shard partition. */
export function dirtyWritesPerShardPerSecond(linksPerSecond: number): number {
  return (linksPerSecond * DIRTY_CELLS_PER_LINK * 2) / DEGREE_DIRTY_SHARDS;
}
