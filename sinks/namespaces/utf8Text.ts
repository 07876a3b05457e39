import { NamespaceCodecError } from './NamespaceCodecError.ts';

/**
 * Strict UTF-8 both ways. `Buffer.from(s)` would silently turn a lone
 * surrogate into U+FFFD and `toString('utf8')` would do the same with bad
 * bytes; either would break "decode(encode(x)) === x" and let two different
 * strings share one key. Both directions throw instead.
 */
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LONE_SURROGATE = /\p{Cs}/u;

export function encodeUtf8(text: string, codec: string): Uint8Array {
  // Ids are mostly ASCII: copy the units straight (no surrogate is possible); otherwise the general path.
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) return encodeNonAscii(text, codec);
    out[i] = unit;
  }
  return out;
}

function encodeNonAscii(text: string, codec: string): Uint8Array {
  if (LONE_SURROGATE.test(text)) throw new NamespaceCodecError(codec, 'string contains a lone UTF-16 surrogate (not encodable as UTF-8)');
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

export function decodeUtf8(bytes: Uint8Array, codec: string): string {
  try {
    return strictDecoder.decode(bytes);
  } catch (cause) {
    throw new NamespaceCodecError(codec, 'bytes are not valid UTF-8', { cause });
  }
}
