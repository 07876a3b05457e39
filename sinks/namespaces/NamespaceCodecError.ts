/**
 * Thrown when stored bytes cannot be decoded by a namespace codec, or a value
 * cannot be encoded (e.g. a string with a lone surrogate, a bigint outside
 * i64). Never retriable: the same bytes fail the same way every time, so the
 * runtime dead-letters the event that hit it. `codec` names the codec so the
 * reason says which namespace's data is bad.
 */
export class NamespaceCodecError extends Error {
  readonly code = 'invalid_encoding' as const;
  readonly retriable = false as const;

  readonly codec: string;

  constructor(codec: string, message: string, options?: { cause?: unknown }) {
    super(`${codec}: ${message}`, options);
    this.codec = codec;
    this.name = 'NamespaceCodecError';
  }
}

/** True for a NamespaceCodecError, even from a second copy of this module (checks the code, not the class). */
export function isNamespaceCodecError(e: unknown): e is NamespaceCodecError {
  return e instanceof Error && (e as { code?: unknown }).code === 'invalid_encoding' && typeof (e as { codec?: unknown }).codec === 'string';
}
