import { describe, expect, it } from 'vitest';
import { parseJavaMajor } from './javaRuntime.ts';

describe('parseJavaMajor', () => {
  it.each([
    ['openjdk version "17.0.15" 2025-04-15', 17],
    ['openjdk version "25" 2025-09-16', 25],
    ['java version "1.8.0_402"', 8],
    ['openjdk version "21.0.2" 2024-01-16 LTS', 21],
  ])('reads %s as %i', (out, major) => {
    expect(parseJavaMajor(out)).toBe(major);
  });

  it('returns undefined for output with no version', () => {
    expect(parseJavaMajor('command not found')).toBeUndefined();
  });
});
