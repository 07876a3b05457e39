import { inject } from 'vitest';
import type { StackEndpoints } from '../../stack/endpoints.ts';

/** The endpoints of the stack that globalSetup brought up for this run. */
export function stackEndpoints(): StackEndpoints {
  return inject('stack');
}
