import { AuthenticationError, ProtocolError, ResponseError, TimeoutError } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { clientLevel } from './platformaticLogs.ts';
import { withRetriable } from './platformaticErrors.ts';

describe('errors @platformatic/kafka reports', () => {
  it('log the retried start-up and rebalance answers at debug, everything else at warn', () => {
    expect(clientLevel(new ProtocolError('COORDINATOR_LOAD_IN_PROGRESS'))).toBe('debug');
    expect(clientLevel(new ProtocolError('REBALANCE_IN_PROGRESS'))).toBe('debug');
    expect(clientLevel(new ProtocolError('TOPIC_AUTHORIZATION_FAILED'))).toBe('warn');
    expect(clientLevel(new Error('ECONNREFUSED'))).toBe('warn');
  });

  it("carry kafkajs' retriable flag: false when the client marked the error, or one inside it, as not worth retrying", () => {
    const tooLarge = new ResponseError(0, 9, { '/topics/0/partitions/0': [10, null] }, undefined);
    expect((withRetriable(tooLarge) as { retriable?: boolean }).retriable).toBe(false);
    expect((withRetriable(new ProtocolError('NOT_LEADER_OR_FOLLOWER')) as { retriable?: boolean }).retriable).toBe(true);
    expect((withRetriable(new Error('plain')) as { retriable?: boolean }).retriable).toBe(true);
    // The client marks a timeout canRetry: false; kafkajs retries one, and so does the runtime.
    expect((withRetriable(new TimeoutError('Request timed out')) as { retriable?: boolean }).retriable).toBe(true);
    expect((withRetriable(new AuthenticationError('SASL failed')) as { retriable?: boolean }).retriable).toBe(false);
  });
});
