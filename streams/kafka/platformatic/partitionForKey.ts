import { murmur2 } from '@platformatic/kafka';

/**
 * The partition the Java client's default partitioner (and kafkajs') puts `key` in: murmur2 of
 * the key's bytes, made positive by masking the sign bit, modulo the partition count.
 * @platformatic/kafka's own defaultPartitioner makes it positive with `>>> 0` instead, which
 * puts about half of all keys elsewhere, so the adapter partitions keyed records itself.
 */
export function partitionForKey(key: Buffer | string, partitionCount: number): number {
  return (murmur2(key, false) & 0x7fffffff) % partitionCount;
}
