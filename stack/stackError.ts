/** Why the stack could not be had; `code` is closed so callers can branch without parsing text. */
export type StackErrorCode =
  | 'JAVA_MISSING'
  | 'MAVEN_MISSING'
  | 'DOWNLOAD_FAILED'
  | 'PORT_IN_USE'
  | 'START_FAILED'
  | 'NOT_READY'
  | 'DOCKER_FAILED';

export class StackError extends Error {
  override readonly name = 'StackError';
  readonly code: StackErrorCode;

  constructor(code: StackErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
