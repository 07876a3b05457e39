import { describe, expect, it } from 'vitest';
import { recordCoordinates } from './recordCoordinates.ts';

const meta = (partition: number, baseOffset: string) => ({ topicName: 't', partition, errorCode: 0, baseOffset });

describe('recordCoordinates', () => {
  it('numbers the messages of each partition from its base offset, in send order', () => {
    expect(recordCoordinates('t', [2, 0, 2, 2, 0], [meta(0, '10'), meta(2, '7')])).toEqual([
      { topic: 't', partition: 2, offset: '7' },
      { topic: 't', partition: 0, offset: '10' },
      { topic: 't', partition: 2, offset: '8' },
      { topic: 't', partition: 2, offset: '9' },
      { topic: 't', partition: 0, offset: '11' },
    ]);
  });

  it('keeps int64 offsets exact beyond 2^53', () => {
    expect(recordCoordinates('t', [1, 1], [meta(1, '9007199254740993')]).map((c) => c.offset)).toEqual(['9007199254740993', '9007199254740994']);
  });

  it('refuses an answer without the partition a message went to', () => {
    expect(() => recordCoordinates('t', [3], [meta(0, '1')])).toThrow('no base offset for t/3');
  });
});
