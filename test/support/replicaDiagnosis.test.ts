import { describe, expect, it } from 'vitest';
import { partitionsOfNewestLine } from './replicaDiagnosis.ts';

describe('partitionsOfNewestLine', () => {
  it('names the index and link partitions of a newest-page line, and nothing for other lines', () => {
    expect(partitionsOfNewestLine('newest follows in user-0: user-127@1(s303-592), user-86@2(s303-588)')).toEqual({ table: 'follows_in_recent', id: 'user-0', links: 'follows_in' });
    expect(partitionsOfNewestLine('newest likes out user-9: ')).toEqual({ table: 'likes_out_recent', id: 'user-9', links: 'likes_out' });
    expect(partitionsOfNewestLine('link-out likes user-97->user-23 ACTIVE@1 s101-785 wt=1')).toBeUndefined();
  });
});
