import { readFileSync } from 'node:fs';
import type { AvscRecord } from '../../../schemas/index.ts';

/** EdgeMutation v1 as registered before v2 (the generated module holds only the newest version). */
export const edgeMutationV1Avsc = JSON.parse(
  readFileSync(new URL('../../../schemas/avro/EdgeMutation.v1.avsc', import.meta.url), 'utf8'),
) as AvscRecord;
