import kafkajs from 'kafkajs';
import type { LogEntry, logCreator } from 'kafkajs';
import type { Level, Logger } from 'pino';

/**
 * Errors kafkajs logs and then retries on its own while a cluster starts: the group
 * coordinator loads `__consumer_offsets`, and a topic just created has no leader yet.
 * A new user's first `npm start` met them as seven ERROR lines.
 */
const STARTUP_NOISE = [
  'The group coordinator is not available',
  "The coordinator is loading and hence can't process requests",
  'This is not the correct coordinator for this group',
  'Failed to find group coordinator',
  'There is no leader for this topic-partition',
  'This server does not host this topic-partition',
];

const isStartupNoise = (text: unknown): boolean => typeof text === 'string' && STARTUP_NOISE.some((n) => text.includes(n));

/**
 * The pino level of one kafkajs log entry. ERROR stays error except the start-up noise: a
 * broker's error answer (`Response …`), which the request's caller retries and reports itself
 * if it gives up, goes to debug; a consumer crash it caused and the restart that follows go
 * to warn (the consumer comes back; a crash for good is logged by the runtime).
 */
export function kafkajsLevel(entry: Pick<LogEntry, 'level' | 'log'>): Level {
  const { level, log } = entry;
  if (level === kafkajs.logLevel.ERROR) {
    const error: unknown = (log as { error?: unknown }).error;
    if (log.message.startsWith('Response ') && isStartupNoise(error)) return 'debug';
    if (log.message.startsWith('Restarting the consumer')) return 'warn';
    if (log.message.startsWith('Crash: ') && isStartupNoise(log.message)) return 'warn';
    return 'error';
  }
  if (level === kafkajs.logLevel.WARN) return 'warn';
  if (level === kafkajs.logLevel.INFO) return 'info';
  return 'debug';
}

/** A kafkajs logCreator writing through `logger` (component `kafkajs`, the kafkajs namespace as `kafka_namespace`). */
export function pinoLogCreator(logger: Logger): logCreator {
  const child = logger.child({ component: 'kafkajs' });
  return () => (entry) => {
    const { message, timestamp: _timestamp, logger: _logger, ...fields } = entry.log;
    child[kafkajsLevel(entry)]({ kafka_namespace: entry.namespace, ...fields }, message);
  };
}
