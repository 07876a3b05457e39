import { describe, expect, it } from 'vitest';
import { bucketCounts, gaugeValue, histogramTotals, labelValue, lateness, meansBetween } from './serverTimings.ts';

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

describe('the tail from the buckets', () => {
  const tail = (within10: number, within50: number, count: number) => `edgestream_http_request_duration_seconds_bucket{le="0.01",method="GET",route="/r",status="200"} ${within10}
edgestream_http_request_duration_seconds_bucket{le="0.05",method="GET",route="/r",status="200"} ${within50}
edgestream_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/r",status="200"} ${count}
edgestream_http_request_duration_seconds_sum{method="GET",route="/r",status="200"} ${count * 0.004}
edgestream_http_request_duration_seconds_count{method="GET",route="/r",status="200"} ${count}
`;

  it('reads one bound of a histogram per label set, the bound left out of the labels', () => {
    expect(bucketCounts(tail(8, 9, 10), 'edgestream_http_request_duration_seconds', '0.05')).toEqual(new Map([['method="GET",route="/r",status="200"', 9]]));
  });

  it('gives the shares above 10 and 50 ms of what was observed between two scrapes', () => {
    // Between the scrapes: 100 requests, 90 within 10 ms, 98 within 50 ms.
    const [m] = meansBetween(tail(8, 9, 10), tail(98, 107, 110), 'edgestream_http_request_duration_seconds', 1000);
    expect(m).toMatchObject({ count: 100, over10Ms: 0.1, over50Ms: 0.02 });
  });

  it('gives no share where the histogram has no bucket at that bound (a latency without it, a count)', () => {
    expect(meansBetween(scrape(1.5, 10), scrape(3.5, 30), 'edgestream_read_duration_seconds', 1000)[0]).not.toHaveProperty('over10Ms');
    const queries = (n: number) => `edgestream_read_queries_bucket{le="1",operation="out"} ${n}\nedgestream_read_queries_sum{operation="out"} ${n}\nedgestream_read_queries_count{operation="out"} ${n}\n`;
    const [m] = meansBetween(queries(10), queries(30), 'edgestream_read_queries');
    expect(m).toEqual({ labels: 'operation="out"', count: 20, mean: 1 });
  });
});

describe('gaugeValue', () => {
  it('reads an unlabelled gauge, scaled, and NaN when it is missing', () => {
    const text = '# TYPE nodejs_eventloop_lag_p99_seconds gauge\nnodejs_eventloop_lag_p99_seconds 0.0125\nnodejs_eventloop_lag_p99_seconds_other 9\n';
    expect(gaugeValue(text, 'nodejs_eventloop_lag_p99_seconds', 1000)).toBe(12.5);
    expect(gaugeValue(text, 'nodejs_eventloop_lag_max_seconds')).toBeNaN();
  });
});

describe('lateness', () => {
  it('takes the timers\' own interval off a loop-delay histogram value, never below zero', () => {
    expect(lateness(10.1, 10)).toBe(0.1); // an idle loop with 10 ms timers
    expect(lateness(62.1, 10)).toBe(52.1);
    expect(lateness(0.9, 1)).toBe(0);
  });
});

describe('labelValue', () => {
  it('finds one label of a label set', () => {
    expect(labelValue('method="GET",route="/v1/vertices/:vertex/out/:type",status="200"', 'route')).toBe('/v1/vertices/:vertex/out/:type');
    expect(labelValue('method="GET",status="200"', 'route')).toBeUndefined();
  });
});
