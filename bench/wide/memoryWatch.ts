import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { peakRssBytes } from '../ingest/procStats.ts';
import { mib } from '../ingest/stats.ts';

/**
 * Memory of this process (the reader) during one phase: RSS before it, the
 * peak during it and a few checkpoints along the way.
 *
 * The peak is the kernel's VmHWM after resetting it at the start
 * (`echo 5 > /proc/self/clear_refs`), so no short spike between two samples is
 * missed; where the reset is refused the peak of 50 ms samples of
 * `process.memoryUsage().rss` is reported instead (both are recorded).
 * A full GC runs before the baseline, so garbage of earlier phases does not
 * count against this one.
 */
export interface MemoryReport {
  readonly baselineRssMiB: number;
  readonly peakRssMiB: number;
  /** peak - baseline. */
  readonly growthMiB: number;
  readonly peakSource: 'VmHWM' | 'samples';
  readonly peakSampledRssMiB: number;
  readonly peakHeapUsedMiB: number;
  readonly samples: number;
  /** RSS and heap at caller-chosen moments (e.g. every 10% of a scan). */
  readonly checkpoints: readonly { readonly at: string; readonly rssMiB: number; readonly heapUsedMiB: number }[];
}

export interface MemoryWatch {
  checkpoint(at: string): void;
  stop(): MemoryReport;
}

let gcFn: (() => void) | undefined | null = null;
/** A full GC (V8's `gc`, exposed at run time: the npm script has no node flags). */
export function collectGarbage(): void {
  if (gcFn === null) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gcFn = vm.runInNewContext('gc') as () => void;
    } catch {
      gcFn = undefined;
    }
  }
  gcFn?.();
}

function resetPeak(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

export function watchMemory(intervalMs = 50): MemoryWatch {
  collectGarbage();
  collectGarbage();
  const baseline = process.memoryUsage().rss;
  const reset = resetPeak() && (peakRssBytes(process.pid) ?? Infinity) <= baseline * 1.05 + 4 * 2 ** 20;
  let peakSampled = baseline;
  let peakHeap = process.memoryUsage().heapUsed;
  let samples = 0;
  const checkpoints: { at: string; rssMiB: number; heapUsedMiB: number }[] = [];
  const sample = () => {
    const m = process.memoryUsage();
    samples++;
    if (m.rss > peakSampled) peakSampled = m.rss;
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    return m;
  };
  const timer = setInterval(sample, intervalMs);
  return {
    checkpoint(at) {
      const m = sample();
      checkpoints.push({ at, rssMiB: mib(m.rss), heapUsedMiB: mib(m.heapUsed) });
    },
    stop() {
      clearInterval(timer);
      sample();
      const hwm = reset ? peakRssBytes(process.pid) : undefined;
      const peak = hwm !== undefined ? Math.max(hwm, peakSampled) : peakSampled;
      return {
        baselineRssMiB: mib(baseline),
        peakRssMiB: mib(peak),
        growthMiB: mib(peak - baseline),
        peakSource: hwm !== undefined ? 'VmHWM' : 'samples',
        peakSampledRssMiB: mib(peakSampled),
        peakHeapUsedMiB: mib(peakHeap),
        samples,
        checkpoints,
      };
    },
  };
}
