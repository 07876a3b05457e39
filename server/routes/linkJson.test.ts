import { describe, expect, it } from 'vitest';
import type { EdgeLink } from '../../reads/index.ts';
import { linkJson } from './linkJson.ts';

describe('linkJson', () => {
  it('renders time as a decimal string and keeps the other fields', () => {
    expect(linkJson({ state: 'REMOVED', time: 2n ** 62n, mutationId: 'm1' })).toEqual({ state: 'REMOVED', time: '4611686018427387904', mutationId: 'm1' });
    expect(linkJson({ peer: 'b', time: 5n, mutationId: 'm2' })).toEqual({ peer: 'b', time: '5', mutationId: 'm2' });
  });

  it('renders a data payload as base64 (the link value gains `data` with the write side of issue 15)', () => {
    const withData = { state: 'ACTIVE', time: 1n, mutationId: 'm', data: Buffer.from([0, 1, 254, 255]) } as EdgeLink;
    expect(linkJson(withData)).toEqual({ state: 'ACTIVE', time: '1', mutationId: 'm', data: 'AAH+/w==' });
    expect(JSON.parse(JSON.stringify(linkJson({ ...withData, data: new Uint8Array(0) } as EdgeLink)))).toMatchObject({ data: '' });
  });
});
