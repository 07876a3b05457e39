import type { TestProject } from 'vitest/node';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { resolveStack } from '../../stack/resolveStack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackEndpoints;
  }
}

/**
 * Brings up (or finds) the stack once for the whole integration run. It never
 * skips: if no stack can be had, this throws and the run fails saying why.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const resolved = await resolveStack({ log: (line) => console.log(`[stack] ${line}`) });
  project.provide('stack', resolved.endpoints);
  return resolved.release;
}
