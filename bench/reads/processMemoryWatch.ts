import fs from 'node:fs';
import { peakRssBytes, rssBytes } from '../ingest/procStats.ts';
import { mib } from '../ingest/stats.ts';

/** Peak RSS of another process over a phase: its VmHWM after resetting it (`/proc/<pid>/clear_refs`), else the peak of 50 ms samples. */
export function watchProcessMemory(pid: number) {
  let reset = false;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    reset = true;
  } catch {
    // not permitted: the samples alone give the peak
  }
  const baseline = rssBytes(pid) ?? 0;
  let peakSampled = baseline;
  const timer = setInterval(() => (peakSampled = Math.max(peakSampled, rssBytes(pid) ?? 0)), 50);
  return {
    stop() {
      clearInterval(timer);
      const hwm = reset ? peakRssBytes(pid) : undefined;
      return { baselineRssMiB: mib(baseline), peakRssMiB: mib(Math.max(hwm ?? 0, peakSampled)), peakSource: hwm === undefined ? 'samples' : 'VmHWM', peakSampledRssMiB: mib(peakSampled) };
    },
  };
}
