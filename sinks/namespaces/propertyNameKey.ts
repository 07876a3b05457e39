import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/** A property name as the clustering key of a `T_props` cell: its UTF-8 bytes. */
export const encodePropertyNameKey = (name: string): Uint8Array => encodeUtf8(name, 'propertyNameKey');
export const decodePropertyNameKey = (bytes: Uint8Array): string => decodeUtf8(bytes, 'propertyNameKey');
