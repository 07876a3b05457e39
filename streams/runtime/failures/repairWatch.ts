import type { KafkaPort } from '../../kafka/index.ts';

/** Whether a partition's repair records are all committed by the repair group; kept up to date cheaply. */
export interface RepairWatch {
  /** True while the repair partition `partition` holds a record its group has not committed (checked at most once a second). */
  pending(partition: number): Promise<boolean>;
  /** This runner is handing a record of `partition` to the repair topic: pending until the group has committed past it. */
  handedOff(partition: number): void;
  /**
   * The consumer got an assignment (every group join): what was known to be
   * clear is checked again, since another member may have handed records off
   * while it owned a partition. This runner's own hand-offs stay pending.
   */
  assigned(): void;
}

/** How often a pending partition is checked again. */
const RECHECK_MS = 1_000;

/**
 * Watches the repair topic for the input consumer (docs/architecture.md §5,
 * "The exact index"): a repair re-runs an event with fresh reads and can race
 * the consumer's own event of the same edge, so while a partition has a
 * repair in flight the consumer writes that partition's entries unverified.
 * The repair topic is keyed like the input, so repair partition p holds only
 * input partition p's events. A partition is checked when first seen after
 * each assignment (an earlier owner's repairs, this runner's own included if
 * the partition moved away and back), and again only while pending: after a
 * hand-off of this runner's, until the group's committed offset reaches the
 * end offset.
 */
export function createRepairWatch(kafka: KafkaPort, repairTopic: string, repairGroup: string, nowMs: () => number = Date.now): RepairWatch {
  const state = new Map<number, { pending: boolean; checkedAt: number }>();
  const checking = new Map<number, Promise<boolean>>();
  // Bumped by each assignment: a check begun before it answers its caller but is not remembered.
  let assignment = 0;

  async function check(partition: number): Promise<boolean> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [committed, ends] = await Promise.all([admin.fetchOffsets({ groupId: repairGroup, topics: [repairTopic] }), admin.fetchTopicOffsets(repairTopic)]);
      const end = ends.find((p) => p.partition === partition);
      const done = committed[0]?.partitions.find((p) => p.partition === partition)?.offset;
      const from = done === undefined || done === '-1' ? (end?.low ?? '0') : done;
      return end !== undefined && BigInt(from) < BigInt(end.high);
    } finally {
      await admin.disconnect();
    }
  }

  return {
    async pending(partition) {
      const known = state.get(partition);
      if (known !== undefined && (!known.pending || nowMs() - known.checkedAt < RECHECK_MS)) return known.pending;
      let inFlight = checking.get(partition);
      if (inFlight === undefined) {
        const startedAt = nowMs();
        const during = assignment;
        const started: Promise<boolean> = check(partition)
          .then((pending) => {
            // A hand-off during the check stays pending.
            const latest = state.get(partition);
            const result = latest !== undefined && latest.pending && latest.checkedAt > startedAt ? true : pending;
            if (during === assignment) state.set(partition, { pending: result, checkedAt: startedAt });
            return result;
          })
          .finally(() => {
            if (checking.get(partition) === started) checking.delete(partition);
          });
        inFlight = started;
        checking.set(partition, inFlight);
      }
      return inFlight;
    },
    handedOff(partition) {
      state.set(partition, { pending: true, checkedAt: nowMs() });
    },
    assigned() {
      assignment++;
      checking.clear();
      for (const [partition, known] of state) if (!known.pending) state.delete(partition);
    },
  };
}
