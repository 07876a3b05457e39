import type { Admin } from 'kafkajs';

/** Sum over partitions of the group's committed offsets on `topic` (a partition without a commit counts 0). */
export async function committedTotal(admin: Admin, groupId: string, topic: string): Promise<number> {
  const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return (entry?.partitions ?? []).reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
}

/** Sum over partitions of the high watermarks of `topic` (= records written, without transactions). */
export async function endOffsetTotal(admin: Admin, topic: string): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return offsets.reduce((sum, p) => sum + Number(p.high), 0);
}

/** Waits until the consumer group has members with assigned partitions (state Stable). */
export async function waitForStableGroup(admin: Admin, groupId: string, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const { groups } = await admin.describeGroups([groupId]);
    const g = groups[0];
    if (g && g.state === 'Stable' && g.members.length > 0) return Math.round(performance.now() - t0);
    if (performance.now() - t0 > timeoutMs) throw new Error(`consumer group ${groupId} not stable after ${timeoutMs} ms (state ${g?.state ?? 'unknown'})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
