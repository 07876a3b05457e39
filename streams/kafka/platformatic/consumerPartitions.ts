/** `topic:partition`, the key of every per-partition map here. */
export const partitionKey = (topic: string, partition: number): string => `${topic}:${partition}`;

/** Where a fetched batch stood when it was fetched; it is stale once either moves. */
export interface BatchMark {
  readonly key: string;
  readonly generation: number;
  readonly epoch: number;
}

/**
 * A group consumer's view of its partitions: what the group assigned, where each is fetched
 * next, what is paused, and what is being handled. A rebalance or a join bumps the generation
 * (every batch in flight is stale; positions are read again from the committed offsets);
 * a seek bumps the partition's epoch (its batch in flight is stale).
 */
export class ConsumerPartitions {
  #generation = 0;
  #assigned = new Map<string, { topic: string; partition: number }>();
  #positions = new Map<string, bigint>();
  #epochs = new Map<string, number>();
  #pausedTopics = new Set<string>();
  #pausedPartitions = new Set<string>();
  #busy = new Set<string>();

  get generation(): number {
    return this.#generation;
  }

  /** A rebalance began: nothing is assigned until the join completes. */
  revokeAll(): void {
    this.#generation++;
    this.#assigned.clear();
    this.#positions.clear();
  }

  /** The group assigned these partitions; every position is unknown until read from the commits. */
  assign(assignment: Readonly<Record<string, readonly number[]>>): void {
    this.revokeAll();
    for (const [topic, partitions] of Object.entries(assignment)) {
      for (const partition of partitions) this.#assigned.set(partitionKey(topic, partition), { topic, partition });
    }
  }

  isAssigned(key: string): boolean {
    return this.#assigned.has(key);
  }

  /** Assigned, not paused, not being handled: what the next fetch asks for. */
  fetchable(): { topic: string; partition: number; key: string; position: bigint | undefined }[] {
    const out: { topic: string; partition: number; key: string; position: bigint | undefined }[] = [];
    for (const [key, { topic, partition }] of this.#assigned) {
      if (this.#busy.has(key) || this.#pausedTopics.has(topic) || this.#pausedPartitions.has(key)) continue;
      out.push({ topic, partition, key, position: this.#positions.get(key) });
    }
    return out;
  }

  setPosition(key: string, offset: bigint): void {
    this.#positions.set(key, offset);
  }

  /** Sets the position read from the commits (or the log's start or end) unless a seek set one meanwhile. */
  fillPosition(key: string, offset: bigint): void {
    if (this.#assigned.has(key) && !this.#positions.has(key)) this.#positions.set(key, offset);
  }

  position(key: string): bigint | undefined {
    return this.#positions.get(key);
  }

  /** Fetch `key` from `offset` next; its batch in flight goes stale. */
  seek(key: string, offset: bigint): void {
    this.#epochs.set(key, (this.#epochs.get(key) ?? 0) + 1);
    this.#positions.set(key, offset);
  }

  pause(topic: string, partitions?: readonly number[]): void {
    if (partitions === undefined) this.#pausedTopics.add(topic);
    else for (const p of partitions) this.#pausedPartitions.add(partitionKey(topic, p));
  }

  resume(topic: string, partition: number): void {
    this.#pausedPartitions.delete(partitionKey(topic, partition));
  }

  /** Marks a batch of `key` in hand (no fetch of it until `release`), and where it stood. */
  take(key: string): BatchMark {
    this.#busy.add(key);
    return { key, generation: this.#generation, epoch: this.#epochs.get(key) ?? 0 };
  }

  release(mark: BatchMark): void {
    this.#busy.delete(mark.key);
  }

  anyBusy(): boolean {
    return this.#busy.size > 0;
  }

  rebalancedSince(mark: BatchMark): boolean {
    return mark.generation !== this.#generation;
  }

  isStale(mark: BatchMark): boolean {
    return this.rebalancedSince(mark) || !this.#assigned.has(mark.key) || (this.#epochs.get(mark.key) ?? 0) !== mark.epoch;
  }
}
