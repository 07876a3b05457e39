import { createEdgeReader, createReadCounters, createStorePartitionReader, type EdgeReader } from '../reads/index.ts';
import type { CommandContext } from './commandContext.ts';

/**
 * The one place the CLI builds its EdgeReader, so the PartitionReader (plain
 * today, split-aware later) and the counters' sink change here only. A
 * one-shot command's counters see only its own reads; a wide partition is
 * logged, not yet published to `<prefix>wide-partitions`.
 */
export async function openReader(ctx: CommandContext): Promise<EdgeReader> {
  const partitions = createStorePartitionReader(await ctx.store());
  const counters = createReadCounters({
    wide: ctx.config.wide,
    onWide: (event) =>
      ctx.logger.warn({ wide: { ...event, bytes_read: `${event.bytes_read}`, rows_read: `${event.rows_read}`, rows_returned: `${event.rows_returned}`, detected_at: `${event.detected_at}`, window_ms: `${event.window_ms}` } }, 'wide partition detected'),
  });
  return createEdgeReader({ partitions, config: ctx.config, counters });
}
