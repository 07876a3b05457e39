/** `--stack` of bench:ingest, bench:reads and bench:wide: the single-node stack or the local 3-node cluster. */
export const STACK_CHOICES = ['single', 'cluster'] as const;
export type StackChoice = (typeof STACK_CHOICES)[number];

export function parseStackChoice(raw: string | undefined): StackChoice {
  if (raw === undefined) return 'single';
  if (!(STACK_CHOICES as readonly string[]).includes(raw)) throw new Error(`--stack: expected ${STACK_CHOICES.join(' or ')}, got "${raw}"`);
  return raw as StackChoice;
}

/** A bench's default result file: `bench/results/<bench>[-cluster]-latest.json` at the committed sizes, `…-small.json` below them. */
export const defaultResultFile = (bench: string, committedSize: boolean, choice: StackChoice): string => `bench/results/${bench}${choice === 'cluster' ? '-cluster' : ''}-${committedSize ? 'latest' : 'small'}.json`;
