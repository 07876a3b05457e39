/**
 * A reader call with a bad argument; nothing was read. `argument` names it as
 * the API spells it (`limit`, `cursor`, `hops[1].type`), so a caller such as
 * the CLI can map it to its own flag. Never retriable.
 */
export class ReadArgumentError extends Error {
  readonly code = 'invalid_argument' as const;
  readonly retriable = false as const;

  readonly argument: string;
  readonly reason: string;

  constructor(argument: string, reason: string) {
    super(`${argument}: ${reason}`);
    this.argument = argument;
    this.reason = reason;
    this.name = 'ReadArgumentError';
  }
}

/** True for a ReadArgumentError, even from a second copy of this module (checks the code, not the class). */
export function isReadArgumentError(e: unknown): e is ReadArgumentError {
  return e instanceof Error && (e as { code?: unknown }).code === 'invalid_argument' && typeof (e as { argument?: unknown }).argument === 'string';
}
