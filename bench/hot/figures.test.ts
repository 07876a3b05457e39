import { describe, expect, it } from 'vitest';
import { cpuMicrosPerLink, summarise, type PhaseFigures, type RawPhaseFigures, type Variant } from './figures.ts';

const phase = (variant: Variant, repeat: number, linksPerSecond: number, over: Partial<PhaseFigures> = {}): PhaseFigures => ({
  variant,
  repeat,
  links: 1_000,
  sources: variant === 'hot' ? 1 : 100,
  drainSeconds: 1_000 / linksPerSecond,
  linksPerSecond,
  fanOutSeconds: 1,
  produceLinksPerSecond: 50_000,
  peakBacklog: 10,
  repairs: 1,
  dlq: 0,
  repairsDrained: true,
  cpu: { wallSeconds: 2, coresByProcess: { processor: 1, cassandra: 0.5 }, machineBusyCores: 2, machineCores: 2, otherCores: 0.25 },
  check: { sampled: 1, countsSettled: true, countSettleSeconds: repeat, pageMismatches: 0, examples: [] },
  ...over,
});

describe('hot-source figures', () => {
  it('turns average cores over a drain into CPU µs per link, the other processes included', () => {
    expect(cpuMicrosPerLink({ wallSeconds: 2, coresByProcess: { processor: 1, cassandra: 0.5 }, otherCores: 0.25 }, 1_000)).toEqual({ processor: 2_000, cassandra: 1_000, others: 500 });
  });

  it('pairs the hot and spread phases by repeat for the ratio, whatever order they ran in', () => {
    const s = summarise([phase('spread', 2, 4_000), phase('hot', 1, 1_000), phase('hot', 2, 3_000), phase('spread', 1, 2_000), phase('hot', 3, 500)]);
    expect(s.hotOverSpread.repeats).toEqual([0.5, 0.75]);
    expect(s.hotOverSpread.median).toBe(0.625);
    expect(s.hot.linksPerSecond).toMatchObject({ repeats: [1_000, 3_000, 500], median: 1_000, min: 500, max: 3_000, spreadPct: 250 });
    expect(s.spread.phases).toBe(2);
  });

  it('counts a phase as passed only when its counts settled, its pages matched and its repairs drained', () => {
    const s = summarise([
      phase('hot', 1, 1_000),
      phase('hot', 2, 1_000, { repairsDrained: false }),
      phase('hot', 3, 1_000, { check: { sampled: 1, countsSettled: true, countSettleSeconds: 1, pageMismatches: 1, examples: ['x'] } }),
      phase('hot', 4, 1_000, { check: { sampled: 1, countsSettled: false, countSettleSeconds: 9, pageMismatches: 0, examples: [] }, dlq: 2 }),
    ]);
    expect(s.hot.checksPassed).toBe(1);
    expect(s.hot.repairs).toBe(4);
    expect(s.hot.dlq).toBe(2);
    expect(s.hot.cpuMicrosPerLink['processor']?.median).toBe(2_000);
  });

  it('sets the hot drain rate beside the raw driver’s rate of the same repeat, and reports every raw repeat', () => {
    const raw = (repeat: number, linksPerSecond: number): RawPhaseFigures => ({
      repeat,
      links: 1_000,
      seconds: 1_000 / linksPerSecond,
      linksPerSecond,
      chunksInFlight: 24,
      readRequests: 10,
      writeRequests: 100,
      cpu: { wallSeconds: 1, coresByProcess: { bench: 0.5, cassandra: 1 }, machineBusyCores: 2, machineCores: 2, otherCores: 0.5 },
    });
    const s = summarise([phase('hot', 1, 1_000), phase('spread', 1, 2_000), phase('hot', 2, 1_500), phase('spread', 2, 2_000)], [raw(2, 6_000), raw(1, 4_000)]);
    expect(s.hotOverRaw?.repeats).toEqual([0.25, 0.25]);
    expect(s.hotOverSpread.repeats).toEqual([0.5, 0.75]);
    expect(s.raw?.linksPerSecond).toMatchObject({ repeats: [4_000, 6_000], median: 5_000, spreadPct: 40 });
    expect(s.raw?.cpuMicrosPerLink['cassandra']?.median).toBe(1_000);
  });

  it('has no raw figures when the raw phase was skipped', () => {
    const s = summarise([phase('hot', 1, 1_000), phase('spread', 1, 2_000)]);
    expect(s.raw).toBeUndefined();
    expect(s.hotOverRaw).toBeUndefined();
  });
});
