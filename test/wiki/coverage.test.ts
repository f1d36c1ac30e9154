import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../src/wiki/page.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';
import { lowCoverageFindings, measureCoverage } from '../../src/wiki/validate/coverage.js';

const { contract } = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8'));
const page = (path: string, sources: string[], body: string) =>
  parsePage(path, `---\ntitle: T\nsummary: S\nsources: [${sources.join(', ')}]\n---\n\n${body}\n`, contract);

/** raw/a.md: 10 lines, line 5 blank; raw/b.md: 4 lines; raw/c.pdf: text not countable. */
const LINES: Record<string, boolean[]> = {
  'raw/a.md': [true, true, true, true, false, true, true, true, true, true],
  'raw/b.md': [true, true, true, true],
};
const contentLines = (rawPath: string) => LINES[rawPath];

describe('measureCoverage', () => {
  it('counts the text lines inside some from-range, merging overlaps, per cited source, lowest first', () => {
    const pages = [
      page('wiki/sources/a.md', ['raw/a.md'], 'One. <!-- from: raw/a.md#L1-3 -->\nTwo. <!-- from: raw/a.md#L2-6 -->'),
      page('wiki/concepts/x.md', ['raw/b.md', 'raw/c.pdf'], 'Three. <!-- from: raw/a.md#L40-50 --> Four. <!-- from: raw/b.md -->'),
    ];
    expect(measureCoverage(pages, contract, contentLines)).toEqual({
      sources: [
        { source: 'raw/b.md', lines: 4, covered: 0, share: 0 },
        { source: 'raw/a.md', lines: 9, covered: 5, share: 0.556 },
      ],
      unmeasured: ['raw/c.pdf'],
    });
  });

  it('measures nothing in a wiki that cites no line range at all', () => {
    const pages = [page('wiki/sources/a.md', ['raw/a.md'], 'Plain notes. <!-- from: raw/a.md -->')];
    expect(measureCoverage(pages, contract, contentLines)).toEqual({ sources: [], unmeasured: [] });
  });

  it.each([
    [0.5, ['raw/b.md']],
    [0.6, ['raw/a.md', 'raw/b.md']],
    [0, []],
  ])('threshold %s warns about %j', (threshold, warned) => {
    const sources = [
      { source: 'raw/a.md', lines: 9, covered: 5, share: 0.556 },
      { source: 'raw/b.md', lines: 4, covered: 0, share: 0 },
    ];
    const findings = lowCoverageFindings(sources, threshold);
    expect(findings.map((f) => f.path).sort()).toEqual(warned);
    for (const f of findings) expect(f).toMatchObject({ rule: 'low-coverage', severity: 'warning' });
  });
});
