import { describe, expect, it } from 'vitest';
import { createRuntimeMetrics, progressLine } from './runtimeMetrics.ts';

describe('progressLine', () => {
  it('reports the records per chunk of the interval, 0 when no chunk was committed in it', () => {
    const m = createRuntimeMetrics();
    m.count('records', 3);
    m.count('chunks', 3);
    const before = m.snapshot();
    m.count('records', 50);
    m.count('chunks', 4);
    expect(progressLine(before, m.snapshot(), 10_000)).toMatchObject({ events_per_s: 5, records: 53, records_per_chunk: 12.5 });
    expect(progressLine(m.snapshot(), m.snapshot(), 10_000)).toMatchObject({ records_per_chunk: 0 });
  });
});
