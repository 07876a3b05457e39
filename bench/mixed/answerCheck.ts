import pLimit from 'p-limit';
import { LINKS_LIST_LIMIT } from './opMix.ts';
import type { LinkRow, MixTarget, PointLink } from './mixTarget.ts';

const rowText = (r: LinkRow) => `${r.dst}@${r.time}:${r.data}`;
const pointText = (r: PointLink) => `${rowText(r)}:${r.visible ? 'visible' : 'hidden'}`;

/** The first difference between two answers, or undefined when they are equal (same rows in the same order). */
export function firstDifference(a: readonly string[], b: readonly string[]): string | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return `#${i}: ${a[i] ?? '(none)'} vs ${b[i] ?? '(none)'}`;
  return undefined;
}

export interface AnswerCheck {
  readonly vertices: number;
  readonly pageDifferences: number;
  readonly multigetDifferences: number;
  readonly countDifferences: number;
  readonly examples: readonly string[];
}

/**
 * Before the request phase, two systems must give the same answers (the
 * examples read "a vs b"): for
 * each sampled vertex, the newest-first page of 50 (peers, times and data in
 * order), a multi-get of its first loaded links and a count of it. Counts are
 * compared only when `compareCounts` (they are a projection that may not
 * have settled).
 */
export async function compareAnswers(o: {
  a: MixTarget;
  b: MixTarget;
  vertices: readonly { readonly src: string; readonly dsts: readonly string[] }[];
  compareCounts: boolean;
}): Promise<AnswerCheck> {
  const limit = pLimit(8);
  let pageDifferences = 0;
  let multigetDifferences = 0;
  let countDifferences = 0;
  const examples: string[] = [];
  const note = (what: string, src: string, d: string | undefined) => {
    if (d === undefined) return false;
    if (examples.length < 5) examples.push(`${what} of ${src}: ${d}`);
    return true;
  };
  await Promise.all(
    o.vertices.map(({ src, dsts }) =>
      limit(async () => {
        const [pe, pr] = await Promise.all([o.a.page(src, LINKS_LIST_LIMIT), o.b.page(src, LINKS_LIST_LIMIT)]);
        if (note('page', src, firstDifference(pe.map(rowText), pr.map(rowText)))) pageDifferences++;
        if (dsts.length > 0) {
          const byDst = (xs: PointLink[]) => xs.map(pointText).sort();
          const [me, mr] = await Promise.all([o.a.links(src, dsts), o.b.links(src, dsts)]);
          if (note('multi-get', src, firstDifference(byDst(me), byDst(mr)))) multigetDifferences++;
        }
        if (o.compareCounts) {
          const [ce, cr] = await Promise.all([o.a.count(src), o.b.count(src)]);
          if (note('count', src, ce === cr ? undefined : `${ce} vs ${cr}`)) countDifferences++;
        }
      }),
    ),
  );
  return { vertices: o.vertices.length, pageDifferences, multigetDifferences, countDifferences, examples };
}
