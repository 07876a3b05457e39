import { describe, expect, it } from 'vitest';
import { defaultResultFile, parseStackChoice } from './stackChoice.ts';

describe('parseStackChoice', () => {
  it('defaults to single and takes cluster', () => {
    expect(parseStackChoice(undefined)).toBe('single');
    expect(parseStackChoice('cluster')).toBe('cluster');
  });

  it('names the flag and the choices for anything else', () => {
    expect(() => parseStackChoice('docker')).toThrow('--stack: expected single or cluster, got "docker"');
  });
});

describe('defaultResultFile', () => {
  it('keeps the single-node files and gives the cluster its own, so a cluster run never overwrites a committed figure', () => {
    expect(defaultResultFile('ingest', true, 'single')).toBe('bench/results/ingest-latest.json');
    expect(defaultResultFile('reads', false, 'single')).toBe('bench/results/reads-small.json');
    expect(defaultResultFile('wide', true, 'cluster')).toBe('bench/results/wide-cluster-latest.json');
    expect(defaultResultFile('ingest', false, 'cluster')).toBe('bench/results/ingest-cluster-small.json');
  });
});
