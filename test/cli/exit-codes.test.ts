import { describe, expect, it } from 'vitest';
import { lintExitCode } from '../../src/cli/exit-codes.js';
import type { Finding } from '../../src/wiki/validate/finding.js';

/** What `wiki lint` exits with: 1 on errors, and with --strict on warnings nobody has kept with a reason. */
describe('lintExitCode', () => {
  const warning = (keptBecause?: string): Finding => ({ rule: 'miscited', severity: 'warning', path: 'wiki/concepts/a.md', line: 3, message: 'm', ...(keptBecause ? { keptBecause } : {}) });
  const report = (findings: Finding[]) => ({ findings, errors: 0, warnings: findings.length, changes: [] });

  it('--strict fails on an open warning, not on one a review kept with its reason', () => {
    expect(lintExitCode(report([warning('a fair paraphrase')]), true)).toBe(0);
    expect(lintExitCode(report([warning('a fair paraphrase'), warning()]), true)).toBe(1);
    expect(lintExitCode(report([warning()]), false)).toBe(0);
  });
});
