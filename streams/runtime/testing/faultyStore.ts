import { decorateStore, StoreError, type Mutation, type StoreErrorCode, type TwoLevelMapStore } from '../../../sinks/store/index.ts';

/**
 * Wraps a store so tests can make writes or reads fail: `failWrites` decides
 * per mutation whether it fails (and with which code), reported like a real
 * backend (a partial_failure naming the failed input indexes, or the error of
 * a whole-call failure). `readCalls` records each read call: ["get", namespace, id],
 * ["getKeys", namespace, id] or ["getCells", namespace, ...ids].
 */
export function faultyStore(inner: TwoLevelMapStore) {
  const calls: Mutation[][] = [];
  const readCalls: string[][] = [];
  /** A code fails the write; `{ code, landed: true }` applies it and still reports the failure (a timeout whose write landed). */
  let writeFault: ((m: Mutation, call: number) => StoreErrorCode | { readonly code: StoreErrorCode; readonly landed: true } | undefined) | undefined;
  let wholeCallFault: ((call: number) => unknown) | undefined;
  /** Decides per read call, given the partitions it reads, whether it fails. */
  let readFault: ((namespace: string, call: number, ids: readonly string[]) => StoreErrorCode | undefined) | undefined;
  let reads = 0;
  const store = decorateStore(inner, {
    namespace(name) {
      const ns = inner.namespace(name);
      return {
        ...ns,
        namespace: ns.namespace,
        features: ns.features,
        get: async (id, key) => {
          readCalls.push(['get', name, id]);
          const code = readFault?.(name, reads++, [id]);
          if (code !== undefined) throw new StoreError(code, `injected read ${code}`);
          return ns.get(id, key);
        },
        getKeys: async (id, keys) => {
          readCalls.push(['getKeys', name, id]);
          const code = readFault?.(name, reads++, [id]);
          if (code !== undefined) throw new StoreError(code, `injected read ${code}`);
          return ns.getKeys(id, keys);
        },
        getCells: async (cells) => {
          readCalls.push(['getCells', name, ...cells.map((c) => c.id)]);
          const code = readFault?.(name, reads++, cells.map((c) => c.id));
          if (code !== undefined) throw new StoreError(code, `injected read ${code}`);
          return ns.getCells(cells);
        },
      };
    },
    async mutateMany(mutations) {
      const call = calls.length;
      calls.push([...mutations]);
      const whole = wholeCallFault?.(call);
      if (whole !== undefined) throw whole;
      const failures: { index: number; code: StoreErrorCode }[] = [];
      const ok: Mutation[] = [];
      mutations.forEach((m, index) => {
        const fault = writeFault?.(m, call);
        if (fault === undefined) return void ok.push(m);
        if (typeof fault === 'object') ok.push(m);
        failures.push({ index, code: typeof fault === 'object' ? fault.code : fault });
      });
      await inner.mutateMany(ok);
      if (failures.length > 0) {
        throw new StoreError('partial_failure', `${failures.length} injected`, {
          failures: failures.map((f) => ({ mutationIndexes: [f.index], error: new StoreError(f.code, `injected ${f.code}`) })),
        });
      }
    },
  });
  return {
    store,
    calls,
    readCalls,
    failWrites: (fn: typeof writeFault) => void (writeFault = fn),
    failWholeCalls: (fn: typeof wholeCallFault) => void (wholeCallFault = fn),
    failReads: (fn: typeof readFault) => void (readFault = fn),
  };
}
