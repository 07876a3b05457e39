import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { degreeFlagsPrefix, degreeGroupBucketsPrefix, degreeGroupsPrefix, encodeDegreeBucketKey, encodeDegreeFlagKey, encodeDegreeGroupKey, encodeDegreeMirrorMarkerKey } from './degreeMirror.ts';

const startsWith = (key: Uint8Array, prefix: Uint8Array) => Buffer.from(key).subarray(0, prefix.length).equals(Buffer.from(prefix));
const peer = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes('\u0000')).map((s) => new TextEncoder().encode(s));

describe('degree_mirror keys', () => {
  it("a flag lies under its bucket's prefix, a bucket count under its group's prefix, a group count under the groups prefix, and none under another kind's (property)", () => {
    fc.assert(
      fc.property(peer, peer, (a, b) => {
        const flag = encodeDegreeFlagKey('follows', 'in', a);
        expect(startsWith(flag, degreeFlagsPrefix('follows', 'in', a))).toBe(true);
        expect(startsWith(encodeDegreeBucketKey('follows', 'in', a), degreeGroupBucketsPrefix('follows', 'in', a))).toBe(true);
        expect(startsWith(encodeDegreeGroupKey('follows', 'in', a), degreeGroupsPrefix('follows', 'in'))).toBe(true);
        expect(startsWith(flag, degreeGroupBucketsPrefix('follows', 'in', a))).toBe(false);
        expect(startsWith(encodeDegreeBucketKey('follows', 'in', a), degreeGroupsPrefix('follows', 'in'))).toBe(false);
        // A bucket's group is a function of the bucket.
        if (Buffer.from(encodeDegreeBucketKey('follows', 'in', a)).equals(Buffer.from(encodeDegreeBucketKey('follows', 'in', b)))) {
          expect(Buffer.from(encodeDegreeGroupKey('follows', 'in', a))).toEqual(Buffer.from(encodeDegreeGroupKey('follows', 'in', b)));
        }
        // Same bucket iff same bucket count key.
        const sameBucket = Buffer.from(encodeDegreeBucketKey('follows', 'in', a)).equals(Buffer.from(encodeDegreeBucketKey('follows', 'in', b)));
        expect(startsWith(encodeDegreeFlagKey('follows', 'in', b), degreeFlagsPrefix('follows', 'in', a))).toBe(sameBucket);
      }),
    );
  });

  it('keeps types and directions apart', () => {
    const p = new TextEncoder().encode('bob');
    expect(startsWith(encodeDegreeFlagKey('follows', 'out', p), degreeFlagsPrefix('follows', 'in', p))).toBe(false);
    expect(startsWith(encodeDegreeGroupKey('follow', 'in', p), degreeGroupsPrefix('follows', 'in'))).toBe(false);
    expect(Buffer.from(encodeDegreeMirrorMarkerKey('follows', 'in')).toString()).toBe('follows\u0000in\u0000m');
  });
});
