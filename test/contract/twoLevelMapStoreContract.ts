import { afterAll, beforeAll, describe } from 'vitest';
import type { NamespaceConfigInput } from '../../sinks/store/storeConfig.ts';
import type { NamespaceStore, TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { TINY_INLINE_BYTES } from './contractHelpers.ts';
import { describeChunkedValues } from './contractChunking.ts';
import { describeClear } from './contractClear.ts';
import { describeConfiguration } from './contractConfig.ts';
import { describeLastWriteWins } from './contractLastWriteWins.ts';
import { describeMutateMany } from './contractMutateMany.ts';
import { describeRangeDeletes } from './contractRangeDeletes.ts';
import { describeReads } from './contractReads.ts';
import { describeSliceMany } from './contractSliceMany.ts';
import { describeValues } from './contractValues.ts';

/**
 * One contract suite for every TwoLevelMapStore backend (JanusGraph's
 * KeyColumnValueStoreTest, subclassed per backend). A backend test calls
 * `describeTwoLevelMapStoreContract(name, openStore)`; the suite opens one
 * store with the namespaces below, calls `init()` once, gives every test its
 * own partition ids, and closes the store at the end.
 */

export interface ContractStoreSpec {
  readonly namespaces: readonly NamespaceConfigInput[];
}

/** Opens a store of the backend under test. May reject (config errors are part of the contract). */
export type OpenStore = (spec: ContractStoreSpec) => Promise<TwoLevelMapStore>;

export interface ContractOptions {
  /** fast-check runs of the last-write-wins model test (keep it small against a real cluster). */
  readonly modelRuns: number;
}


export const CONTRACT_NAMESPACES = [
  { name: 'c_main' },
  { name: 'c_tiny', maxInlineValueBytes: TINY_INLINE_BYTES, chunkBytes: 16 },
  { name: 'c_plain', chunking: false },
] as const satisfies readonly NamespaceConfigInput[];

export interface ContractContext {
  readonly store: TwoLevelMapStore;
  /** Default limits (chunked above 256 KiB where the backend chunks). */
  readonly main: NamespaceStore;
  /** Chunked above TINY_INLINE_BYTES, so chunking is cheap to exercise. */
  readonly tiny: NamespaceStore;
  /** Chunking off: values above the inline limit are rejected. */
  readonly plain: NamespaceStore;
  readonly openStore: OpenStore;
  readonly options: ContractOptions;
}

export function describeTwoLevelMapStoreContract(
  name: string,
  openStore: OpenStore,
  options: ContractOptions = { modelRuns: 100 },
): void {
  describe(`${name} satisfies the TwoLevelMapStore contract`, () => {
    let context: ContractContext | undefined;
    const ctx = (): ContractContext => {
      if (context === undefined) throw new Error('contract store was not opened (see beforeAll)');
      return context;
    };

    beforeAll(async () => {
      const store = await openStore({ namespaces: CONTRACT_NAMESPACES });
      await store.init();
      context = {
        store,
        main: store.namespace('c_main'),
        tiny: store.namespace('c_tiny'),
        plain: store.namespace('c_plain'),
        openStore,
        options,
      };
    });

    afterAll(async () => {
      await context?.store.close();
    });

    describeReads(ctx);
    describeSliceMany(ctx);
    describeValues(ctx);
    describeLastWriteWins(ctx);
    describeRangeDeletes(ctx);
    describeChunkedValues(ctx);
    describeMutateMany(ctx);
    describeClear(ctx);
    describeConfiguration(ctx);
  });
}
