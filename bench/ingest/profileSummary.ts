import fs from 'node:fs';
import path from 'node:path';

/** A V8 .cpuprofile (what `node --cpu-prof` writes). */
interface CpuProfile {
  readonly nodes: readonly { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface ProfileSummary {
  readonly file: string;
  readonly seconds: number;
  /** Share of wall time the main thread was busy (not idle). */
  readonly busyShare: number;
  /** Self time by area (a package, a project folder, GC, node internals), % of busy time. */
  readonly byArea: readonly { area: string; ms: number; pct: number }[];
  /** Top functions by self time. */
  readonly topSelf: readonly { fn: string; ms: number; pct: number }[];
  /** Inclusive time of selected project functions (synchronous stacks only), % of busy time. */
  readonly inclusive: readonly { fn: string; ms: number; pct: number }[];
}

/** Where a frame's code lives: `kafkajs`, `cassandra-driver`, `streams/runtime`, `(gc)`... */
export function areaOf(url: string, functionName: string): string {
  if (url === '') {
    if (functionName === '(garbage collector)') return '(gc)';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return '(program)';
    return '(native)';
  }
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return 'node:internals';
  const m = /\/(streams|sinks|processors|schemas|cli|stack|bench)\/([^/]+)\//.exec(url);
  if (m) return `${m[1]}/${m[2]}`;
  return url.split('/').slice(-2).join('/');
}

const INCLUSIVE_OF_INTEREST = [
  'decodeStage',
  'readStage',
  'executeReads',
  'writeStage',
  'executeWrites',
  'mutateMany',
  'consolidateMutations',
  'writePartition',
  'splitBatches',
  'validateEdgeMutation',
  'process',
  'decode',
  'encode',
  'emitStage',
  'settleChunk',
  'runPipeline',
];

export function summarizeProfile(file: string): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const totalUs = profile.endTime - profile.startTime;
  let idleUs = 0;
  const area = new Map<string, number>();
  const fnSelf = new Map<string, number>();
  const fnIncl = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const a = areaOf(url, functionName);
    if (a === '(idle)') {
      idleUs += us;
      continue;
    }
    area.set(a, (area.get(a) ?? 0) + us);
    const name = `${functionName || '(anonymous)'} ${a}${url ? `:${path.basename(url)}:${lineNumber + 1}` : ''}`;
    fnSelf.set(name, (fnSelf.get(name) ?? 0) + us);
    // Inclusive time: each named function of interest on this sample's stack, counted once per stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)?.callFrame;
      if (!f) break;
      const key = `${f.functionName} ${areaOf(f.url, f.functionName)}`;
      if (INCLUSIVE_OF_INTEREST.includes(f.functionName) && !seen.has(key)) {
        seen.add(key);
        fnIncl.set(key, (fnIncl.get(key) ?? 0) + us);
      }
    }
  }
  const busyUs = Math.max(1, totalUs - idleUs);
  const rows = (m: Map<string, number>, limit: number, key: 'area' | 'fn') =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([k, us]) => ({ [key]: k, ms: Math.round(us / 1000), pct: Math.round((1000 * us) / busyUs) / 10 }));
  return {
    file,
    seconds: Math.round(totalUs / 1e5) / 10,
    busyShare: Math.round((1000 * busyUs) / totalUs) / 1000,
    byArea: rows(area, 18, 'area') as { area: string; ms: number; pct: number }[],
    topSelf: rows(fnSelf, 25, 'fn') as { fn: string; ms: number; pct: number }[],
    inclusive: rows(fnIncl, 20, 'fn') as { fn: string; ms: number; pct: number }[],
  };
}

/** CLI: `npx node bench/ingest/profileSummary.ts <file.cpuprofile>` prints the summary as JSON. */
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profileSummary.ts <file.cpuprofile>');
  console.log(JSON.stringify(summarizeProfile(file), null, 2));
}
