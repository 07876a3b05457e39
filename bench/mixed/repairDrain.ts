import type { Admin } from 'kafkajs';
import { committedTotal, endOffsetTotal } from '../ingest/kafkaOffsets.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';

/**
 * The fan-out commits an event once its writes landed or it was handed to the
 * repair topic, so its group catching up is not yet every link visible: this
 * waits until the repair group has also committed every record of the repair
 * topic (end offsets are read again each poll, since a repair that fails again
 * is published again), or `timeoutMs` passed.
 */
export async function waitForRepairDrain(o: {
  admin: Admin;
  group: string;
  topic: string;
  timeoutMs: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<{ readonly records: number; readonly drainedAt: number; readonly drained: boolean }> {
  const t0 = performance.now();
  for (;;) {
    const records = await endOffsetTotal(o.admin, o.topic);
    const committed = await committedTotal(o.admin, o.group, o.topic);
    const now = performance.now();
    if (committed >= records || now - t0 > o.timeoutMs) {
      o.status.done();
      return { records, drainedAt: now, drained: committed >= records };
    }
    o.status.update(`${o.label}: ${records - committed} of ${records} repair records still pending, ${((now - t0) / 1000).toFixed(0)} s after the fan-out caught up`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
