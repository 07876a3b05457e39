import type { ReadRequest, ReadResults } from '../../../processors/contract/EventProcessor.ts';
import type { Cell } from '../../../sinks/store/TwoLevelMapStore.ts';

const requestKey = (r: ReadRequest): string => `${r.namespace}\u0000${r.id}\u0000${Buffer.from(r.key).toString('hex')}`;

/**
 * ReadResults as the runtime builds them: the answers to exactly `requests`
 * (looked up with `lookup`), and a throw for any cell the processor did not
 * ask for, so a test catches a processor reading what it did not request.
 */
export function readResultsFrom(requests: readonly ReadRequest[], lookup: (r: ReadRequest) => Cell | undefined): ReadResults {
  const answers = new Map(requests.map((r) => [requestKey(r), lookup(r)]));
  return {
    get(request) {
      const key = requestKey(request);
      if (!answers.has(key)) throw new Error(`read of an unrequested cell ${request.namespace}[${request.id}]`);
      return answers.get(key);
    },
  };
}
