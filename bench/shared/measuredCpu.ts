import { watchCpu, type CpuReport, type ProcessPids } from '../ingest/procStats.ts';

/** CPU while a measurement ran: this process, the named servers, and what the rest of the machine used meanwhile. */
export type PhaseCpu = CpuReport & { readonly otherCores: number };

/** Runs `fn` and adds `cpu` to its result; "others" = machine busy minus this process and `pids`. */
export async function withCpu<T extends object>(pids: ProcessPids, fn: () => Promise<T>): Promise<T & { cpu: PhaseCpu }> {
  const watch = watchCpu({ bench: process.pid, ...pids });
  const r = await fn();
  const cpu = watch.stop();
  const ours = Object.values(cpu.coresByProcess).reduce((a, b) => a + b, 0);
  return { ...r, cpu: { ...cpu, otherCores: Math.max(0, Math.round((cpu.machineBusyCores - ours) * 100) / 100) } };
}

export const cpuNote = (cpu: PhaseCpu): string =>
  `cores: ${Object.entries(cpu.coresByProcess).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(', ')}, other processes ${cpu.otherCores}; machine busy ${cpu.machineBusyCores}/${cpu.machineCores}`;
