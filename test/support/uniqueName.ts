import { randomBytes } from 'node:crypto';

/**
 * A name no other run or test has used: `<prefix>-<time base36>-<random hex>`.
 * Valid as a Kafka topic, consumer group and (with `-value`) registry subject.
 */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}
