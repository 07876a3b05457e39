import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeChunkMetadata, encodeChunkMetadata, type ChunkMetadata } from './chunkMetadata.ts';
import { assembleChunks, digestOf, splitValue } from './chunkValue.ts';

const plan = (value: Uint8Array, chunkBytes: number, writeTime = 7n) => {
  const chunks = splitValue(value, chunkBytes).map((data, idx) => ({ idx, data }));
  const meta: ChunkMetadata = { chunkCount: chunks.length, totalBytes: value.length, writeTime, digest: digestOf(value) };
  return { chunks, meta };
};

describe('chunk metadata', () => {
  it('round-trips through its 49-byte encoding', () => {
    const meta: ChunkMetadata = { chunkCount: 3, totalBytes: 600_000, writeTime: 1_700_000_000_000_000n, digest: digestOf(Uint8Array.of(1)) };
    const encoded = encodeChunkMetadata(meta);
    expect(encoded.length).toBe(49);
    expect(decodeChunkMetadata(encoded)).toEqual(meta);
  });

  it('reads empty metadata as an inline value and rejects unknown formats as corrupt', () => {
    expect(decodeChunkMetadata(new Uint8Array(0))).toBeUndefined();
    expect(() => decodeChunkMetadata(Uint8Array.of(2, 0, 0))).toThrow(/unknown value_metadata format/);
  });
});

describe('splitValue and assembleChunks', () => {
  it('reassemble any value from its chunks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (value, chunkBytes) => {
        const { chunks, meta } = plan(value, chunkBytes);
        expect(chunks.every((c) => c.data.length <= chunkBytes)).toBe(true);
        expect(Buffer.from(assembleChunks(meta, chunks) ?? Uint8Array.of(1, 2, 3)).equals(Buffer.from(value))).toBe(true);
      }),
    );
  });

  it('refuse missing, extra, reordered or altered chunks', () => {
    const value = Uint8Array.from({ length: 100 }, (_, i) => i);
    const { chunks, meta } = plan(value, 16);
    const altered = chunks.map((c, i) => (i === 2 ? { idx: 2, data: Uint8Array.from(c.data, (x) => x ^ 1) } : c));
    expect(assembleChunks(meta, chunks.slice(1))).toBeUndefined();
    expect(assembleChunks(meta, [...chunks, { idx: chunks.length, data: Uint8Array.of(0) }])).toBeUndefined();
    expect(assembleChunks(meta, [chunks[1], chunks[0], ...chunks.slice(2)] as typeof chunks)).toBeUndefined();
    expect(assembleChunks(meta, altered)).toBeUndefined();
  });
});
