import type { ReadRequest, ReadResults } from '../../../processors/index.ts';
import { cellKey, type Cell, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { mapBounded } from '../../../sinks/store/mapBounded.ts';
import type { RetrySchedule } from '../failures/backoff.ts';
import { classifyFailure } from '../failures/classifyFailure.ts';
import { eventLogFields } from './logFields.ts';
import { describeError, PipelineError } from '../failures/PipelineError.ts';
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
  for (const slot of slots) {
    if (slot.outcome !== undefined || slot.event === undefined) continue;
    try {
      slot.reads ??= deps.processor.reads(slot.event);
    } catch (e) {
      slot.outcome = { kind: 'dead-letter', reason: 'processor_error', error: `reads() threw: ${describeError(e)}` };
      deps.logger.error({ ...eventLogFields(source, slot, deps), err: e }, 'processor reads() threw; event dead-lettered');
      continue;
    }
    const keys = (slot.readKeys ??= slot.reads.map(readKey));
    slot.reads.forEach((r, i) => requests.set(keys[i] as string, r));
  }

  const { cells, failures } = await executeReads(deps.store, requests, deps.readConcurrency, schedule, () => deps.metrics.count('retries'));
  const results = new Map<Slot<E>, ReadResults>();
  for (const slot of slots) {
    const keys = slot.readKeys;
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
 * allows. The requests of one namespace go out as one `getCells` (the store
 * packs a chunk's scattered cells, its node tombstones and current links, into
 * a few requests), a lone request as `get`; each succeeds or fails as a whole.
 * A shared read the store rejects is read again at once cell by cell, so a
 * cell that can never be read fails only the events that asked for it.
 * Throws FATAL on a fatal failure.
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
  const alone = new Set<string>();
  let pending = [...requests.keys()];
  while (pending.length > 0) {
    const units = readUnits(pending, requests, alone);
    const settled = await mapBounded(units, concurrency, async (unit): Promise<(Cell | undefined)[]> => {
      const first = requests.get(unit[0] as string) as ReadRequest;
      const ns = store.namespace(first.namespace);
      if (unit.length === 1) return [await ns.get(first.id, first.key)];
      return ns.getCells(unit.map((k) => requests.get(k) as ReadRequest));
    });
    const retry: string[] = [];
    const isolated: string[] = [];
    settled.forEach((result, i) => {
      const unit = units[i] as string[];
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
      else if (unit.length > 1) {
        for (const k of unit) alone.add(k);
        isolated.push(...unit);
      }
    });
    pending = isolated;
    if (retry.length > 0 && (await schedule.wait())) {
      onRetry();
      pending = [...retry, ...isolated];
    }
  }
  return { cells, failures };
}

/** The pending requests grouped by namespace, in first-seen order; a request in `alone` is read by itself. */
function readUnits(pending: readonly string[], requests: ReadonlyMap<string, ReadRequest>, alone: ReadonlySet<string>): string[][] {
  const byNamespace = new Map<string, string[]>();
  const single: string[][] = [];
  for (const k of pending) {
    if (alone.has(k)) {
      single.push([k]);
      continue;
    }
    const namespace = (requests.get(k) as ReadRequest).namespace;
    const same = byNamespace.get(namespace);
    if (same === undefined) byNamespace.set(namespace, [k]);
    else same.push(k);
  }
  return [...byNamespace.values(), ...single];
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
