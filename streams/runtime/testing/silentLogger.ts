import { pino, type Logger } from 'pino';

/** A logger that writes nothing (unit tests). */
export const silentLogger: Logger = pino({ level: 'silent' });

/** A logger that records every line as a parsed object. */
export function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}
