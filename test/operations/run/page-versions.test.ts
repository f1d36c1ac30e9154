import { describe, expect, it } from 'vitest';
import { PageVersions, STALE_QUOTE_MAX_CHARS } from '../../../src/operations/run/page-versions.js';

/**
 * Which version of a page each concurrent run last saw, and which writes are stale: a write
 * over any version but that one is refused with the current page, so no update is lost.
 */
const PAGE = 'wiki/concepts/attention.md';

describe('PageVersions', () => {
  it('a run alone never has a stale write: nobody else changed anything', () => {
    const versions = new PageVersions();
    const a = versions.open('a', 'raw/a.md');
    expect(a.staleWrite(PAGE, undefined)).toBeUndefined();
    expect(a.staleWrite(PAGE, 'v1')).toBeUndefined();
  });

  it.each([
    ['read it, then another run changed it', (a: Run, b: Run) => {
      a.saw(PAGE, 'v1');
      b.changing(PAGE, 'v1');
    }],
    ['never saw it, and another run changed it since this run started', (_a: Run, b: Run) => b.changing(PAGE, 'v1')],
    ['both thought it new, and the other created it first', (_a: Run, b: Run) => b.changing(PAGE, undefined)],
    ['wrote it, then another run changed it', (a: Run, b: Run) => {
      a.changing(PAGE, 'v1');
      a.saw(PAGE, 'v1-by-a');
      b.changing(PAGE, 'v1-by-a');
    }],
  ])('a write is stale when the run %s; the refusal quotes the current page, after which the merge goes through', (_case, setUp) => {
    const versions = new PageVersions();
    const a = versions.open('a', 'raw/a.md');
    const b = versions.open('b', 'raw/b.md');
    setUp(a, b);
    const refusal = a.staleWrite(PAGE, 'current by b\n');
    expect(refusal).toContain(`${PAGE} was changed by the run ingesting raw/b.md since you last saw it`);
    expect(refusal).toContain(`<current-page path="${PAGE}">\ncurrent by b\n</current-page>`);
    expect(a.staleWrite(PAGE, 'current by b\n')).toBeUndefined();
  });

  it('a page changed after this run read the current version again is not stale', () => {
    const versions = new PageVersions();
    const a = versions.open('a', 'raw/a.md');
    const b = versions.open('b', 'raw/b.md');
    b.changing(PAGE, 'v1');
    a.saw(PAGE, new TextEncoder().encode('v2'));
    expect(a.staleWrite(PAGE, 'v2')).toBeUndefined();
  });

  it('a page too long to quote is named instead, and stays stale until the run reads it', () => {
    const versions = new PageVersions();
    const a = versions.open('a', 'raw/a.md');
    const b = versions.open('b', 'raw/b.md');
    const long = 'x'.repeat(STALE_QUOTE_MAX_CHARS + 1);
    b.changing(PAGE, 'v1');
    expect(a.staleWrite(PAGE, long)).toMatch(/read it first with read_file\(path="wiki\/concepts\/attention\.md"\)/);
    expect(a.staleWrite(PAGE, long)).toBeDefined();
    a.saw(PAGE, long);
    expect(a.staleWrite(PAGE, long)).toBeUndefined();
  });
});

type Run = ReturnType<PageVersions['open']>;
