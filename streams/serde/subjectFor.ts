import type { KnownSchema } from '../../schemas/index.ts';

/** TopicNameStrategy: the subject of a topic's values is `<topic>-value` (keys: `<topic>-key`). */
export function subjectFor(topic: string, schema: Pick<KnownSchema<unknown>, 'subjectSuffix'>): string {
  return `${topic}-${schema.subjectSuffix}`;
}
