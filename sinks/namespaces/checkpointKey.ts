import { encodeUtf8 } from './utf8Text.ts';

/** The key of a split stage's checkpoint in `wide_row_checkpoints[namespace]`. */
export const encodeCheckpointKey = (stage: string, generation: number, partitionId: string): Uint8Array =>
  encodeUtf8(`${stage}\u0000${generation}\u0000${partitionId}`, 'checkpointKey');
