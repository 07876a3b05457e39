import { inject } from 'vitest';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import type { StackDurability } from './clusterFixture.ts';

/** The endpoints of the stack that globalSetup brought up for this run. */
export function stackEndpoints(): StackEndpoints {
  return inject('stack');
}

/** The replication and consistency the run's globalSetup asks for (the cluster's), or undefined for RF 1. */
export function stackDurability(): StackDurability | undefined {
  return inject('durability');
}
