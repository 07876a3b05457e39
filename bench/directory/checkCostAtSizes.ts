import { createSplitDirectory, type WideRowRepository } from '../../sinks/wide/index.ts';
import { timeMembershipChecks, type MembershipTiming } from '../wide/bloomCost.ts';

export interface CheckCostAtSize extends MembershipTiming {
  readonly records: number;
  readonly filterBytes: number;
}

/**
 * The directory's check cost when it holds `size` split partitions, for each size: the
 * records come from memory (the cost of a check does not depend on where a reload read
 * them; bench:directory measures the reload from Cassandra).
 */
export async function checkCostAtSizes(namespaces: readonly string[], sizes: readonly number[], calls: number): Promise<CheckCostAtSize[]> {
  const out: CheckCostAtSize[] = [];
  for (const size of sizes) {
    const ids = (ns: string) => Array.from({ length: size }, (_, i) => i).filter((i) => namespaces[i % namespaces.length] === ns).map((i) => `celebrity-${i}`);
    const unused = (): never => {
      throw new Error('records are not read in this measurement');
    };
    const repository: Pick<WideRowRepository, 'entries' | 'changes' | 'get'> = {
      async *entries(ns: string) {
        for (const partitionId of ids(ns)) yield { partitionId, status: () => 'COMPLETED' as const, record: unused };
      },
      changes: async function* () {},
      get: async () => unused(),
    };
    const directory = createSplitDirectory({ repository, namespaces, refreshMs: 3_600_000, maxStaleMs: 3_600_000, falsePositiveRate: 0.01, primeLimit: 0 });
    await directory.rebuild();
    const split = Array.from({ length: Math.min(size, 4_096) }, (_, i) => ({ namespace: namespaces[i % namespaces.length] as string, partitionId: `celebrity-${i}` }));
    out.push({ records: size, filterBytes: Math.ceil(directory.stats.filterBits / 8), ...timeMembershipChecks((ns, id) => directory.mightHaveRecord(ns, id), namespaces, split, calls) });
  }
  return out;
}
