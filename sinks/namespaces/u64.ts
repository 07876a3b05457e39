import { NamespaceCodecError } from './NamespaceCodecError.ts';

/** Unsigned 64-bit big-endian integers: byte order equals numeric order, which the time-ordered keys rely on. */
export const U64_MAX = 2n ** 64n - 1n;

export function writeU64(target: Uint8Array, offset: number, n: bigint, codec: string): void {
  if (n < 0n || n > U64_MAX) throw new NamespaceCodecError(codec, `${n} does not fit an unsigned 64-bit integer`);
  new DataView(target.buffer, target.byteOffset, target.byteLength).setBigUint64(offset, n, false);
}

export function readU64(source: Uint8Array, offset: number): bigint {
  return new DataView(source.buffer, source.byteOffset, source.byteLength).getBigUint64(offset, false);
}
