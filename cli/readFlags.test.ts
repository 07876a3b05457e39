import { describe, expect, it } from 'vitest';
import { ReadArgumentError } from '../reads/index.ts';
import { microsFlag, parseHops, parseKeys, withFlagNames } from './readFlags.ts';
import { propertyJson } from '../sinks/namespaces/index.ts';
import { microsToIso } from './readOutput.ts';

describe('read command flags', () => {
  it('parses --hops in order and refuses a malformed hop naming the flag', () => {
    expect(parseHops('follows:out, likes:in')).toEqual([{ type: 'follows', direction: 'out' }, { type: 'likes', direction: 'in' }]);
    expect(() => parseHops('follows:out,likes')).toThrow(/--hops expects <type>:out\|in.*got "likes"/);
    expect(() => parseHops('follows:out:x')).toThrow(/--hops/);
    expect(parseHops('follows:out:50,likes:in')).toEqual([{ type: 'follows', direction: 'out', cap: 50 }, { type: 'likes', direction: 'in' }]);
    expect(() => parseHops('follows:out:5:6')).toThrow(/--hops/);
  });

  it('parses --low/--high as µs bigints and refuses anything else naming the flag', () => {
    expect(microsFlag('--low')('1732400000000000')).toBe(1732400000000000n);
    expect(microsFlag('--high')('9223372036854775808')).toBe(2n ** 63n); // the reader refuses it past its bound
    for (const bad of ['-1', '1.5', '1e6', '', 'yesterday', '12345678901234567890']) expect(() => microsFlag('--low')(bad)).toThrow(/^--low must be a time in µs/);
  });

  it('splits --keys on commas', () => {
    expect(parseKeys('since, weight')).toEqual(['since', 'weight']);
  });

  it.each([
    ['cursor', 'belongs to another query', /^--cursor: belongs to another query$/],
    ['perHopCap', 'must be an integer', /^--cap: must be an integer$/],
    ['maxRows', 'must be an integer', /^--max-rows: must be an integer$/],
    ['deadlineMs', 'must be an integer', /^--deadline: must be an integer$/],
    ['hops[0].cap', 'must be an integer', /^--hops \(item 1\.cap\): must be an integer$/],
    ['hops[1].type', "unknown edge type 'x'", /^--hops \(item 2\.type\): unknown edge type 'x'$/],
    ['keys[0]', 'must not be empty', /^--keys \(item 1\): must not be empty$/],
    ['type', "unknown edge type 'x'", /^<type>: unknown edge type 'x'$/],
    ['low', 'must be at most high (1), got 2', /^--low: must be at most high \(1\), got 2$/],
    ['dsts[2]', 'must not be empty', /^<dst...> \(item 3\): must not be empty$/],
  ])('restates a reader error on %s in terms of the flag', async (argument, reason, message) => {
    await expect(withFlagNames(() => Promise.reject(new ReadArgumentError(argument, reason)))).rejects.toThrow(message);
  });

  it('passes other errors through unchanged', async () => {
    const e = new Error('store down');
    await expect(withFlagNames(() => Promise.reject(e))).rejects.toBe(e);
  });
});

describe('read command output', () => {
  it('prints event times as ISO-8601 with microseconds', () => {
    expect(microsToIso(1_700_000_000_123_456n)).toBe('2023-11-14T22:13:20.123456Z');
  });

  it('writes property values losslessly, with their type', () => {
    expect([2024n, 2024, '2024', Buffer.from([1]), null, true, NaN].map(propertyJson)).toEqual([
      { type: 'long', value: '2024' },
      { type: 'double', value: 2024 },
      { type: 'string', value: '2024' },
      { type: 'bytes', value: 'AQ==' },
      { type: 'null', value: null },
      { type: 'boolean', value: true },
      { type: 'double', value: 'NaN' },
    ]);
  });
});
