import type { ReadRequest, ReadResults } from '../../processors/index.ts';
import { bytesKey, cellKey, type Cell, type TwoLevelMapStore } from '../../sinks/store/index.ts';
import { mapBounded } from '../../sinks/store/mapBounded.ts';
import type { RetrySchedule } from './backoff.ts';
import { classifyFailure } from './classifyFailure.ts';
import { eventLogFields } from './logFields.ts';
import { describeError, PipelineError } from './PipelineError.ts';
import type { ChunkSource, PipelineDeps, Slot } from './pipelineTypes.ts';

interface ReadFailure {
  readonly error: unknown;
  readonly decision: 'dead-letter' | 'repair';
}

/**
 * Collects the point reads of every live event of the chunk, reads each
 * distinct cell once (bounded concurrency), retries retriable failures while
 * the schedule allows, and gives each event a ReadResults over its own
 * requests. An event whose read failed gets a repair outcome (or a
 * dead-letter one when the store says the request can never succeed).
 */
export async function readStage<E>(
  deps: PipelineDeps<E>,
  source: ChunkSource,
  slots: Slot<E>[],
  schedule: RetrySchedule,
): Promise<Map<Slot<E>, ReadResults>> {
  const requests = new Map<string, ReadRequest>();
  const keysOf = new Map<Slot<E>, string[]>(); // each request's key, built once
  for (const slot of slots) {
    if (slot.outcome !== undefined || slot.event === undefined) continue;
    try {
      slot.reads ??= deps.processor.reads(slot.event);
    } catch (e) {
      slot.outcome = { kind: 'dead-letter', reason: 'processor_error', error: `reads() threw: ${describeError(e)}` };
      deps.logger.error({ ...eventLogFields(source, slot, deps), err: e }, 'processor reads() threw; event dead-lettered');
      continue;
    }
    const keys = slot.reads.map(readKey);
    keysOf.set(slot, keys);
    slot.reads.forEach((r, i) => requests.set(keys[i] as string, r));
  }

  const { cells, failures } = await executeReads(deps.store, requests, deps.readConcurrency, schedule, () => deps.metrics.count('retries'));
  const results = new Map<Slot<E>, ReadResults>();
  for (const slot of slots) {
    const keys = keysOf.get(slot);
    if (slot.outcome !== undefined || slot.reads === undefined || keys === undefined) continue;
    const failed = failures.size === 0 ? [] : slot.reads.map((r, i) => ({ r, f: failures.get(keys[i] as string) })).filter((x) => x.f !== undefined);
    const first = failed[0]?.f;
    if (first === undefined) {
      results.set(slot, readResultsOver(slot.reads, cells, keys));
      continue;
    }
    const error = `read failed: ${describeError(first.error)}`;
    slot.outcome =
      first.decision === 'dead-letter' || failed.some((x) => x.f?.decision === 'dead-letter')
        ? { kind: 'dead-letter', reason: 'store_rejected', error }
        : { kind: 'repair', failedNamespaces: failed.map((x) => x.r.namespace), error };
    deps.logger.warn({ ...eventLogFields(source, slot, deps), error }, 'point read failed');
  }
  return results;
}

/**
 * Reads every request once; retriable failures are retried while `schedule`
 * allows. Several keys of one partition (a chunk's link ops on one target) go
 * out as one `getKeys`, one key of one namespace in several partitions (the
 * node tombstones of a chunk's endpoints) as one `getMany`; each succeeds or
 * fails as a whole. Throws FATAL on a fatal failure.
 */
export async function executeReads(
  store: TwoLevelMapStore,
  requests: ReadonlyMap<string, ReadRequest>,
  concurrency: number,
  schedule: RetrySchedule,
  onRetry: () => void = () => {},
): Promise<{ cells: Map<string, Cell | undefined>; failures: Map<string, ReadFailure> }> {
  const cells = new Map<string, Cell | undefined>();
  const failures = new Map<string, ReadFailure>();
  let pending = [...requests.keys()];
  while (pending.length > 0) {
    const units = readUnits(pending, requests);
    const settled = await mapBounded(units, concurrency, async ({ keys: unit, samePartition }): Promise<(Cell | undefined)[]> => {
      const first = requests.get(unit[0] as string) as ReadRequest;
      const ns = store.namespace(first.namespace);
      if (unit.length === 1) return [await ns.get(first.id, first.key)];
      if (samePartition) return ns.getKeys(first.id, unit.map((k) => (requests.get(k) as ReadRequest).key));
      return ns.getMany(unit.map((k) => (requests.get(k) as ReadRequest).id), first.key);
    });
    const retry: string[] = [];
    settled.forEach((result, i) => {
      const unit = (units[i] as ReadUnit).keys;
      if (result.status === 'fulfilled') {
        unit.forEach((k, j) => {
          cells.set(k, result.value[j]);
          failures.delete(k);
        });
        return;
      }
      const decision = classifyFailure('store', result.reason);
      if (decision === 'fatal') {
        throw new PipelineError('FATAL', `store read failed: ${describeError(result.reason)}`, { cause: result.reason });
      }
      for (const k of unit) failures.set(k, { error: result.reason, decision: decision === 'retry' ? 'repair' : 'dead-letter' });
      if (decision === 'retry') retry.push(...unit);
    });
    pending = retry;
    if (pending.length === 0 || !(await schedule.wait())) break;
    onRetry();
  }
  return { cells, failures };
}

/** Requests read together: several keys of one partition (`getKeys`), or one key of several partitions (`getMany`). */
interface ReadUnit {
  readonly keys: string[];
  readonly samePartition: boolean;
}

/**
 * The requests grouped, in first-seen order: the keys of one partition asked
 * for more than once (a chunk's link ops on one target) as one multi-key read,
 * then the rest by (namespace, key) (the node tombstones of a chunk's endpoints).
 */
function readUnits(pending: readonly string[], requests: ReadonlyMap<string, ReadRequest>): ReadUnit[] {
  const byPartition = new Map<string, string[]>();
  for (const k of pending) {
    const r = requests.get(k) as ReadRequest;
    const partition = `${r.namespace}\u0000${r.id}`;
    const same = byPartition.get(partition);
    if (same === undefined) byPartition.set(partition, [k]);
    else same.push(k);
  }
  const units: ReadUnit[] = [];
  const byKey = new Map<string, string[]>();
  for (const keys of byPartition.values()) {
    if (keys.length > 1) {
      units.push({ keys, samePartition: true });
      continue;
    }
    const r = requests.get(keys[0] as string) as ReadRequest;
    const group = `${r.namespace}\u0000${bytesKey(r.key)}`;
    const same = byKey.get(group);
    if (same === undefined) byKey.set(group, [keys[0] as string]);
    else same.push(keys[0] as string);
  }
  for (const keys of byKey.values()) units.push({ keys, samePartition: false });
  return units;
}

/** The ReadResults an event sees: only its own requests; anything else is a processor bug. */
export function readResultsOver(
  requested: readonly ReadRequest[],
  cells: ReadonlyMap<string, Cell | undefined>,
  keys: readonly string[] = requested.map(readKey),
): ReadResults {
  return {
    get(request) {
      const k = readKey(request);
      if (!keys.includes(k)) {
        throw new Error(`read of (${request.namespace}, ${request.id}, ${hex(request.key)}) was not requested by reads()`);
      }
      return cells.get(k);
    },
  };
}

export function readKey(r: ReadRequest): string {
  return cellKey(r.namespace, r.id, r.key);
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
