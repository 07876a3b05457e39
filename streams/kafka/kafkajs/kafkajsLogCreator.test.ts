import kafkajs, { type LogEntry } from 'kafkajs';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { kafkajsLevel, pinoLogCreator } from './kafkajsLogCreator.ts';

const { ERROR, WARN, INFO, DEBUG } = kafkajs.logLevel;

/** A kafkajs log entry as its logger builds one (timestamp, logger, message, then the extra fields). */
function entry(level: number, message: string, extra: Record<string, unknown> = {}, namespace = 'Connection'): LogEntry {
  return { namespace, level, label: 'X', log: { timestamp: '2026-11-27T10:00:00.000Z', logger: 'kafkajs', message, ...extra } } as LogEntry;
}

describe('kafkajs log levels through pino', () => {
  it('demotes the retriable start-up noise: broker answers to debug, the crash and restart they cause to warn', () => {
    // The lines a first start prints while the group coordinator loads and new topics elect leaders.
    expect(kafkajsLevel(entry(ERROR, 'Response GroupCoordinator(key: 10, version: 2)', { error: 'The group coordinator is not available', correlationId: 3 }))).toBe('debug');
    expect(kafkajsLevel(entry(ERROR, 'Response JoinGroup(key: 11, version: 5)', { error: "The coordinator is loading and hence can't process requests for this group" }))).toBe('debug');
    expect(kafkajsLevel(entry(ERROR, 'Response Metadata(key: 3, version: 6)', { error: 'There is no leader for this topic-partition as we are in the middle of a leadership election' }))).toBe('debug');
    expect(kafkajsLevel(entry(ERROR, 'Response OffsetCommit(key: 8, version: 5)', { error: 'This is not the correct coordinator for this group' }))).toBe('debug');
    expect(kafkajsLevel(entry(ERROR, 'Crash: KafkaJSGroupCoordinatorNotFound: Failed to find group coordinator', { groupId: 'g' }, 'Consumer'))).toBe('warn');
    expect(kafkajsLevel(entry(ERROR, 'Restarting the consumer in 300ms', { retryTime: 300, groupId: 'g' }, 'Consumer'))).toBe('warn');
  });

  it('keeps every other error an error', () => {
    expect(kafkajsLevel(entry(ERROR, 'Response Produce(key: 0, version: 7)', { error: 'The request included a message larger than the max message size the server will accept' }))).toBe('error');
    expect(kafkajsLevel(entry(ERROR, 'Crash: KafkaJSNonRetriableError: Topic authorization failed', {}, 'Consumer'))).toBe('error');
    expect(kafkajsLevel(entry(ERROR, 'Connection error: connect ECONNREFUSED 127.0.0.1:9092', {}))).toBe('error');
    // A start-up message in another line than a broker answer or a crash is not demoted.
    expect(kafkajsLevel(entry(ERROR, 'Failed to execute listener: The group coordinator is not available', {}, 'Consumer'))).toBe('error');
  });

  it('maps warn, info and debug to the same pino levels', () => {
    expect(kafkajsLevel(entry(WARN, 'w'))).toBe('warn');
    expect(kafkajsLevel(entry(INFO, 'i'))).toBe('info');
    expect(kafkajsLevel(entry(DEBUG, 'd'))).toBe('debug');
  });

  it('writes pino JSON: the message as msg, the extra fields kept, the namespace and component named', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const log = pinoLogCreator(logger)(ERROR);
    log(entry(ERROR, 'Response GroupCoordinator(key: 10, version: 2)', { error: 'The group coordinator is not available', correlationId: 3 }));
    log(entry(ERROR, 'Response Produce(key: 0, version: 7)', { error: 'Broker: message too large' }, 'Producer'));
    expect(lines.map(({ level, msg, component, kafka_namespace, error, correlationId, logger: l, timestamp }) => ({ level, msg, component, kafka_namespace, error, correlationId, l, timestamp }))).toEqual([
      { level: 20, msg: 'Response GroupCoordinator(key: 10, version: 2)', component: 'kafkajs', kafka_namespace: 'Connection', error: 'The group coordinator is not available', correlationId: 3, l: undefined, timestamp: undefined },
      { level: 50, msg: 'Response Produce(key: 0, version: 7)', component: 'kafkajs', kafka_namespace: 'Producer', error: 'Broker: message too large', correlationId: undefined, l: undefined, timestamp: undefined },
    ]);
  });
});
