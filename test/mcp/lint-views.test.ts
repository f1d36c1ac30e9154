import { describe, expect, it } from 'vitest';
import { lintPage } from '../../src/mcp/lint-views.js';
import type { LintReport } from '../../src/operations/lint/lint.js';
import type { Finding } from '../../src/wiki/validate/finding.js';

const warning = (rule: string, path: string): Finding => ({ rule, severity: 'warning', path, message: `${rule} in ${path}` });
const error = (rule: string, path: string): Finding => ({ rule, severity: 'error', path, message: `${rule} in ${path}` });

const REPORT: LintReport = {
  findings: [
    warning('orphan', 'wiki/concepts/a.md'),
    error('broken-link', 'wiki/concepts/b.md'),
    warning('unindexed', 'wiki/concepts/b.md'),
    error('missing-source', 'wiki/sources/c.md'),
    warning('unindexed', 'wiki/sources/c.md'),
  ],
  errors: 2,
  warnings: 3,
  changes: [],
};

describe('lintPage', () => {
  it('puts errors first, keeping the report order within each severity, and counts per rule', () => {
    const page = lintPage(REPORT, { limit: 100, offset: 0 });
    expect(page.findings.map((f) => `${f.rule} ${f.path}`)).toEqual([
      'broken-link wiki/concepts/b.md',
      'missing-source wiki/sources/c.md',
      'orphan wiki/concepts/a.md',
      'unindexed wiki/concepts/b.md',
      'unindexed wiki/sources/c.md',
    ]);
    expect(page.byRule).toEqual({ 'broken-link': 1, 'missing-source': 1, orphan: 1, unindexed: 2 });
    expect(page).toMatchObject({ errors: 2, warnings: 3, total: 5, nextOffset: null });
  });

  it.each([
    { limit: 2, offset: 0, rules: ['broken-link', 'missing-source'], nextOffset: 2 },
    { limit: 2, offset: 2, rules: ['orphan', 'unindexed'], nextOffset: 4 },
    { limit: 2, offset: 4, rules: ['unindexed'], nextOffset: null },
    { limit: 2, offset: 9, rules: [], nextOffset: null },
  ])('windows $limit from $offset', ({ limit, offset, rules, nextOffset }) => {
    const page = lintPage(REPORT, { limit, offset });
    expect(page.findings.map((f) => f.rule)).toEqual(rules);
    expect(page).toMatchObject({ total: 5, limit, offset, nextOffset, byRule: { unindexed: 2 } });
  });

  it('reports a clean wiki as empty', () => {
    expect(lintPage({ findings: [], errors: 0, warnings: 0, changes: [] }, { limit: 10, offset: 0 })).toEqual({
      errors: 0,
      warnings: 0,
      byRule: {},
      total: 0,
      offset: 0,
      limit: 10,
      findings: [],
      nextOffset: null,
    });
  });
});
