import { describe, expect, it } from 'vitest';
import { CapacityArgError, countFlag, parseCapacityArgs } from './args.ts';

describe('countFlag', () => {
  it('reads suffixes, exponents and separators', () => {
    expect(countFlag('vertices', '100B', undefined, 1, 1e15)).toBe(1e11);
    expect(countFlag('edges', '10T', undefined, 1, 1e16)).toBe(1e13);
    expect(countFlag('edges', '1.5e11', undefined, 1, 1e16)).toBe(1.5e11);
    expect(countFlag('ingest', '1_000_000', undefined, 1, 1e10)).toBe(1e6);
    expect(countFlag('ingest', '250k', undefined, 1, 1e10)).toBe(250_000);
  });
});

describe('parseCapacityArgs', () => {
  it('needs vertices, edges and the Zipf exponent for one estimate', () => {
    const a = parseCapacityArgs(['--vertices', '1B', '--edges', '10B', '--zipf', '0.9']);
    expect(a).toMatchObject({ vertices: 1e9, edges: 1e10, zipfIn: 0.9, zipfOut: 0.9, ingestLinksPerSecond: 1e6, opsPerSecond: 0, hops: 2, calibration: 'mixed' });
    expect(parseCapacityArgs(['--sweep']).sweep).toBe(true);
  });

  it.each([
    [['--edges', '10B', '--zipf', '1'], /--vertices is required/],
    [['--vertices', '1B', '--zipf', '1'], /--edges is required/],
    [['--vertices', '1B', '--edges', '10B'], /--zipf is required/],
    [['--vertices', 'lots', '--edges', '10B', '--zipf', '1'], /--vertices must be a number .* got "lots"/],
    [['--vertices', '0', '--edges', '10B', '--zipf', '1'], /--vertices must be a number in \[1,/],
    [['--vertices', '1B', '--edges', '10B', '--zipf', '0'], /--zipf must be a Zipf exponent in \(0, 4\], got "0"/],
    [['--vertices', '1B', '--edges', '10B', '--zipf', '1', '--zipf-out', 'x'], /--zipf-out must be a Zipf exponent/],
    [['--vertices', '1B', '--edges', '10B', '--zipf', '1', '--hops', '2.5'], /--hops must be an integer, got "2.5"/],
    [['--vertices', '1B', '--edges', '10B', '--zipf', '1', '--calibration', 'fast'], /--calibration must be "mixed" or "ingest", got "fast"/],
    [['--vertices', '1B', '--edges', '10B', '--zipf', '1', '--nodes', '3'], /--nodes/],
  ])('rejects %j naming the flag', (argv, message) => {
    expect(() => parseCapacityArgs(argv)).toThrow(CapacityArgError);
    expect(() => parseCapacityArgs(argv)).toThrow(message);
  });
});
