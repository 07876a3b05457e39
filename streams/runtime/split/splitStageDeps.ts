import type { EdgestreamConfig } from '../../../schemas/config/edgestreamConfig.ts';
import type { SplitStrategy } from '../../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { SplitLayoutReader, WideRowRepository } from '../../../sinks/wide/index.ts';

/** What every split stage reads and writes. */
export interface SplitStageDeps {
  /** The plain store: the stages read originals and write split tables directly, never through the mirror. */
  readonly store: TwoLevelMapStore;
  readonly repository: WideRowRepository;
  readonly layoutReader: SplitLayoutReader;
  readonly config: EdgestreamConfig;
  readonly strategies: ReadonlyMap<string, SplitStrategy>;
}

export const micros = (ms: number): number => Math.round(ms * 1_000);
export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const unhex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
