import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * A vertex id as a clustering key (`T_out[src]` keyed by dst, `T_in[dst]`
 * keyed by src): its UTF-8 bytes, so link slices are in UTF-8 byte order.
 */
export const encodeVertexKey = (vertex: string): Uint8Array => encodeUtf8(vertex, 'vertexKey');
export const decodeVertexKey = (bytes: Uint8Array): string => decodeUtf8(bytes, 'vertexKey');
