import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { REPO_ROOT } from '../support/processorProcess.ts';
import { stackEndpoints } from '../support/stack.ts';

const exec = promisify(execFile);
const FOLLOWERS = 21_000; // just over the demo's 20 000-row detection threshold
const VERDICT = /(no measurable change \(split faster in \d of \d repeats\)|split \d+ % (faster|slower))$/;

/**
 * Issue 13: `npm start`'s closing table must be a fair comparison. The demo runs
 * as a user runs it (a child process on the real stack), and its output must show
 * the quiet waits before any measured read, a paired before/after table with a
 * verdict per figure, what the split bought in sizes, and the conditions.
 */
describe('edgestream demo: a fair before/after', () => {
  it('waits for quiet, reads original and split paired, and states sizes and conditions', async () => {
    const { stdout } = await exec(process.execPath, [path.join(REPO_ROOT, 'bin/edgestream.js'), 'demo', '--followers', String(FOLLOWERS), '--users', '200'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...endpointsToEnv(stackEndpoints()) },
      timeout: 540_000,
      maxBuffer: 16 << 20,
    });
    const lines = stdout.split('\n');
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));

    // Quiet first: every group drained, the stages stopped, Cassandra settled — then the reads.
    const pipelineQuiet = at(/^ {3}pipeline quiet after [\d.]+ s \(consumer lag 0 over every group/);
    const cassandraQuiet = at(/^ {3}Cassandra quiet after [\d.]+ s/);
    const reads = at(/^8\. reading the original \(before\) and the split \(after\) in the same window, alternating A\/B/);
    expect(pipelineQuiet).toBeGreaterThan(0);
    expect(cassandraQuiet).toBeGreaterThan(pipelineQuiet);
    expect(reads).toBeGreaterThan(cassandraQuiet);

    // The table: both columns, a verdict per figure, identical followers.
    expect(lines[at(/^\s+before: original\s+after: split\s+paired verdict$/)]).toBeDefined();
    for (const figure of ['page p50 (ms)', 'page p99 (ms)', 'full scan (ms)']) {
      const row = lines.find((l) => l.trimStart().startsWith(figure));
      expect(row, figure).toMatch(VERDICT);
    }
    expect(lines.find((l) => l.trimStart().startsWith('followers read'))).toMatch(/21,000\s+21,000\s+identical$/);

    // What the split bought: the largest bucket is smaller than the original partition, rows and bytes.
    for (const ns of ['follows_in', 'follows_in_recent']) {
      const m = lines.find((l) => l.includes(`${ns}[celebrity]: one partition of`))?.match(/one partition of ([\d,]+) rows, ([\d.]+) MiB → (\d+) \w+ buckets; the largest ([\d,]+) rows, ([\d.]+) MiB/);
      expect(m, ns).toBeTruthy();
      const [, rows, mib, buckets, largestRows, largestMib] = m as RegExpMatchArray;
      expect(Number(rows?.replace(/,/g, ''))).toBe(FOLLOWERS);
      expect(Number(buckets)).toBeGreaterThan(1);
      expect(Number(largestRows?.replace(/,/g, ''))).toBeLessThan(FOLLOWERS);
      expect(Number(largestMib)).toBeLessThan(Number(mib));
    }
    expect(stdout).toMatch(/one Cassandra node: .* no spread across replicas|\d+ Cassandra nodes: buckets hash to different token ranges/);

    // A sentence on latency and the conditions a reader needs to judge it.
    expect(stdout).toMatch(/^(No measurable latency change at this size|Latency, where every repeat agrees)/m);
    const conditions = lines.find((l) => l.startsWith('Conditions:'));
    expect(conditions).toContain(`Conditions: ${os.cpus().length} cores (1-minute load average`);
    expect(conditions).toContain(`${FOLLOWERS.toLocaleString('en-US')} followers`);
    // The demo's own reads go through the server it starts (issue 12): the detection scan and a latency line over HTTP.
    expect(stdout).toMatch(/edgestream serve on http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/4\. read the celebrity over HTTP in both orders .*: 21,000 followers each/);
    expect(stdout).toMatch(/Over HTTP \(the server the demo started, in this process\): newest-50 page p50 [\d.]+ ms, p99 [\d.]+ ms over 200 sequential requests/);
    expect(conditions).toMatch(/500 newest-50 pages and 4 full scans .* per side, A\/B alternated; pipeline quiet \(waited [\d.]+ s\) and stopped, Cassandra quiet \(waited [\d.]+ s\)/);
  }, 600_000);
});
