/**
 * String identities for Map/Set keys on the hot path. Latin-1 maps each byte
 * to one UTF-16 unit (0–255), so the string identifies the bytes exactly,
 * without the copy and the doubled length of a hex string.
 */
export function bytesKey(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Identifies a cell (namespace, id, key); ids and namespace names never contain U+0000. */
export function cellKey(namespace: string, id: string, key: Uint8Array): string {
  return `${namespace}\u0000${id}\u0000${bytesKey(key)}`;
}
