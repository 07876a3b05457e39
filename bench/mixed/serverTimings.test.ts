import { describe, expect, it } from 'vitest';
import { histogramTotals, labelValue, meansBetween } from './serverTimings.ts';

const scrape = (sum: number, count: number, other = 0) => `# HELP edgestream_read_duration_seconds reader call latency
# TYPE edgestream_read_duration_seconds histogram
edgestream_read_duration_seconds_bucket{le="0.005",operation="out",outcome="ok"} ${count}
edgestream_read_duration_seconds_sum{operation="out",outcome="ok"} ${sum}
edgestream_read_duration_seconds_count{operation="out",outcome="ok"} ${count}
edgestream_read_duration_seconds_sum{operation="count",outcome="ok"} ${other}
edgestream_read_duration_seconds_count{operation="count",outcome="ok"} ${other}
edgestream_read_durations_seconds_sum{operation="out"} 99
`;

describe('histogramTotals / meansBetween', () => {
  it('reads the sums and counts of one histogram per label set, nothing of similarly named series', () => {
    const t = histogramTotals(scrape(1.5, 10), 'edgestream_read_duration_seconds');
    expect(t.get('operation="out",outcome="ok"')).toEqual({ sum: 1.5, count: 10 });
    expect(t.size).toBe(2);
  });

  it('gives the mean of what was observed between two scrapes, leaving out label sets with nothing new', () => {
    expect(meansBetween(scrape(1.5, 10, 4), scrape(3.5, 30, 4), 'edgestream_read_duration_seconds', 1000)).toEqual([{ labels: 'operation="out",outcome="ok"', count: 20, mean: 100 }]);
  });
});

describe('labelValue', () => {
  it('finds one label of a label set', () => {
    expect(labelValue('method="GET",route="/v1/vertices/:vertex/out/:type",status="200"', 'route')).toBe('/v1/vertices/:vertex/out/:type');
    expect(labelValue('method="GET",status="200"', 'route')).toBeUndefined();
  });
});
