import { describeTwoLevelMapStoreContract } from '../../test/contract/twoLevelMapStoreContract.ts';
import { createMemoryStore } from './createMemoryStore.ts';

describeTwoLevelMapStoreContract('memory store', async (spec) => createMemoryStore(spec), { modelRuns: 200 });
