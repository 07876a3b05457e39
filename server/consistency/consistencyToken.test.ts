import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatConsistencyToken, parseConsistencyToken } from './consistencyToken.ts';

const topic = fc.stringMatching(/^[a-zA-Z0-9._-]{1,40}$/);
const offset = fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }).map(String);

describe('consistency tokens', () => {
  it('round-trip any topic, partition and int64 offset', () => {
    fc.assert(
      fc.property(topic, fc.nat({ max: 999_999 }), offset, (t, partition, o) => {
        expect(parseConsistencyToken(formatConsistencyToken({ topic: t, partition, offset: o }))).toEqual({ ok: true, token: { topic: t, partition, offset: o } });
      }),
    );
  });

  it('never throw on arbitrary text, and refuse what is not three fields', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseConsistencyToken(text);
        if (parsed.ok) expect(formatConsistencyToken(parsed.token)).toBe(text.replace(/:0+(\d)/g, ':$1'));
      }),
    );
    for (const bad of ['', 't:1', 't:1:x', 't:-1:5', 'a b:1:2', 't:1:9223372036854775808']) expect(parseConsistencyToken(bad).ok).toBe(false);
  });
});
