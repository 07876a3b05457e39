import { describe, expect, it } from 'vitest';
import { parseMixedArgs } from './args.ts';

describe('parseMixedArgs --runtime', () => {
  it('takes a JSON object of config runtime fields, empty by default', () => {
    expect(parseMixedArgs([]).runtime).toEqual({});
    expect(parseMixedArgs(['--runtime', '{"background":{"maxConcurrency":4}}']).runtime).toEqual({ background: { maxConcurrency: 4 } });
  });

  it('refuses what is not a JSON object, naming the flag', () => {
    expect(() => parseMixedArgs(['--runtime', '{background: 4}'])).toThrow(/--runtime must be a JSON object/);
    expect(() => parseMixedArgs(['--runtime', '[1]'])).toThrow(/--runtime must be a JSON object of config runtime fields, got \[1\]/);
  });
});
