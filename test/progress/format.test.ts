import { describe, expect, it } from 'vitest';
import { formatCost, formatDuration, formatTokens } from '../../src/progress/format.js';

describe('formatTokens', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1000, '1k'],
    [1234, '1.23k'],
    [12_345, '12.3k'],
    [999_949, '999.9k'],
    [999_999, '1M'],
    [1_234_567, '1.23M'],
    [45_600_000, '45.6M'],
  ])('%d → %s', (n, expected) => expect(formatTokens(n)).toBe(expected));
});

describe('formatCost', () => {
  it.each([
    [0, '$0.00'],
    [0.0042, '$0.0042'],
    [0.01, '$0.01'],
    [0.126, '$0.13'],
    [12.5, '$12.50'],
  ])('%d → %s', (n, expected) => expect(formatCost(n)).toBe(expected));
});

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [12_400, '12.4 s'],
    [59_940, '59.9 s'],
    [72_400, '1m 12s'],
    [185_000, '3m 05s'],
    [3_725_000, '1h 02m'],
  ])('%d → %s', (n, expected) => expect(formatDuration(n)).toBe(expected));
});
