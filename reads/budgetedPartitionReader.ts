import type { PartitionReader } from './PartitionReader.ts';
import type { ReadBudget } from './readBudget.ts';
import { ReadLimitError } from './ReadLimitError.ts';

/**
 * The PartitionReader of one single-answer operation under `budget`: every
 * read claims a query and its rows first (a page asks for no more rows than
 * are left), a read that cannot start throws ReadLimitError, and a read in
 * flight when the deadline passes or the caller aborts is abandoned (its
 * result is dropped) with the same error. `what` names the operation.
 */
export function budgetedPartitionReader(inner: PartitionReader, budget: ReadBudget, what: string): PartitionReader {
  // One rejection for every read in flight when the deadline passes or the caller aborts.
  const cut = budget.interrupted.then((reason): never => {
    throw new ReadLimitError(reason, budget.spent, what);
  });
  cut.catch(() => undefined); // nobody may be reading then
  const run = async <T>(rows: number, read: (granted: number) => Promise<T>, count: (result: T) => number): Promise<T> => {
    const stop = budget.stopReason();
    if (stop !== undefined) throw new ReadLimitError(stop, budget.spent, what);
    const granted = budget.claim(rows);
    const reading = read(granted).then(
      (result) => {
        budget.settle(granted, count(result));
        return result;
      },
      (e: unknown) => {
        budget.settle(granted, 0);
        throw e;
      },
    );
    return Promise.race([reading, cut]);
  };
  return {
    get: (namespace, id, key) => run(1, () => inner.get(namespace, id, key), (cell) => (cell === undefined ? 0 : 1)),
    // One query for all the keys, and a row for each: a multi-key read cannot be cut short, so it must fit whole.
    getKeys: (namespace, id, keys) =>
      run(
        keys.length,
        async (granted) => {
          if (granted < keys.length) throw new ReadLimitError('read_budget', budget.spent, what);
          return inner.getKeys(namespace, id, keys);
        },
        (cells) => cells.filter((c) => c !== undefined).length,
      ),
    page: (namespace, id, query) => run(query.limit, (limit) => inner.page(namespace, id, { ...query, limit }), (page) => page.cells.length),
    scan: (namespace, id, query) => run(query.limit, (limit) => inner.scan(namespace, id, { ...query, limit }), (page) => page.cells.length),
    // One query claiming `limit` rows per id; a short grant lowers the limit of every id alike, but each needs at least one row.
    scanMany: (namespace, ids, query) =>
      ids.length === 0
        ? Promise.resolve([])
        : run(
            ids.length * query.limit,
            async (granted) => {
              if (granted < ids.length) throw new ReadLimitError('read_budget', budget.spent, what);
              return inner.scanMany(namespace, ids, { limit: Math.floor(granted / ids.length) });
            },
            (pages) => pages.reduce((rows, page) => rows + page.cells.length, 0),
          ),
    replicaGroups: (ids) => inner.replicaGroups(ids),
  };
}
