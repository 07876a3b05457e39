import { InvalidArgumentError } from 'commander';
import { nextStamps } from '../../processors/split/index.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { splittableNamespaces, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import type { WideRowRepository } from '../../sinks/wide/index.ts';
import type { WidePartitionPublisher } from '../../streams/producer/index.ts';

const ms = (a?: number, b?: number) => (a === undefined || b === undefined ? '-' : `${((b - a) / 1e6).toFixed(1)}s`);

/** `edgestream splits`: every wide_rows record with its status and figures. */
export async function splitsCommand(repository: WideRowRepository, config: EdgestreamConfig, o: { json: boolean }): Promise<WideRowRecord[]> {
  const records = (await Promise.all([...splittableNamespaces(config.edgeTypes).keys()].map((ns) => repository.list(ns)))).flat();
  if (o.json) {
    console.log(JSON.stringify(records));
    return records;
  }
  if (records.length === 0) console.log('no wide partitions recorded');
  for (const r of records) {
    const v = r.verification;
    console.log(
      [
        `${r.namespace}[${r.partitionId}]`,
        r.status,
        `gen ${r.generation}`,
        `${r.rows} rows`,
        `${(r.bytes / 1024 / 1024).toFixed(1)} MiB`,
        `${r.buckets} ${r.strategy} buckets`,
        `plan→copy ${ms(r.plannedAt, r.copiedAt)}`,
        `copy→verified ${ms(r.copiedAt, r.verifiedAt)}`,
        v ? `compared ${v.rowsCompared}, moved ${v.movedKeys}, mismatched ${v.mismatchedKeys}` : '',
        r.failure ?? '',
      ].filter(Boolean).join('  '),
    );
  }
  return records;
}

/**
 * `edgestream split <namespace> <id>`: asks the planner to split a partition now
 * (no detection needed) or to re-run a FAILED split as the next generation.
 * A COMPLETED split is re-run only with --force (it is marked FAILED first, so
 * readers use the original until the new generation completes).
 */
export async function splitCommand(
  deps: { repository: WideRowRepository; publisher: WidePartitionPublisher; config: EdgestreamConfig },
  namespace: string,
  partitionId: string,
  o: { force: boolean },
): Promise<void> {
  const splittable = splittableNamespaces(deps.config.edgeTypes);
  if (!splittable.has(namespace)) throw new InvalidArgumentError(`<namespace> must be one of ${[...splittable.keys()].join(', ')}, got "${namespace}"`);
  const record = await deps.repository.get(namespace, partitionId);
  if (record !== undefined && record.status !== 'FAILED' && record.status !== 'COMPLETED') {
    console.log(`${namespace}[${partitionId}] is ${record.status} (generation ${record.generation}); the chain is already on it`);
    return;
  }
  if (record?.status === 'COMPLETED') {
    if (!o.force) {
      console.log(`${namespace}[${partitionId}] is already COMPLETED (generation ${record.generation}); --force re-runs it`);
      return;
    }
    const now = Date.now() * 1_000;
    await deps.repository.put({ ...record, status: 'FAILED', failure: 're-run forced by an operator', ...nextStamps(record, now) });
  }
  const nowMicros = BigInt(Date.now()) * 1_000n;
  const published = await deps.publisher.publish({ namespace, partition_id: partitionId, bytes_read: 0n, rows_read: 0n, rows_returned: 0n, detected_at: nowMicros, immutable: false, window_ms: 0n });
  if (!published) throw new Error(`could not publish the split request to the wide-partitions topic (see the log above)`);
  console.log(`requested a split of ${namespace}[${partitionId}]${record ? ` (generation ${record.generation + 1})` : ''}; follow it with \`edgestream splits\``);
}
