import type { TestProject } from 'vitest/node';
import { clusterDurability, type StackDurability } from './clusterFixture.ts';
import { clusterDown, clusterEndpoints, clusterUp, loadClusterStackConfig } from '../../stack/clusterStack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by the cluster project only: what createEdgestreamEnv uses in place of RF 1. */
    durability: StackDurability | undefined;
  }
}

/**
 * Brings up the local 3-node cluster once for the whole `cluster` project and provides its
 * endpoints as the run's stack, with RF 3, LOCAL_QUORUM and min.insync.replicas 2 as every
 * env's default. It never skips: if the cluster cannot start, this throws with the reason and
 * the log tails. A cluster that was already running is left running.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const log = (line: string) => console.log(`[cluster] ${line}`);
  const stackConfig = loadClusterStackConfig();
  const up = await clusterUp(stackConfig, log);
  const weStartedIt = up.started.length > 0;
  log(weStartedIt ? `cluster up in ${up.elapsedMs} ms (started ${up.started.join(', ')})` : 'cluster already running');
  project.provide('stack', clusterEndpoints(stackConfig));
  project.provide('durability', clusterDurability);
  return async () => {
    if (weStartedIt && process.env['EDGESTREAM_KEEP_STACK'] !== '1') await clusterDown(stackConfig, log);
  };
}
