import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureWikiFolder, type AlterationKind, type PageGroundingMeasurement } from '../../scripts/measure/grounding-pages.js';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * Grounding on pages a (played) capable model wrote through the CLI from long public documents
 * (test/fixtures/played-wiki*): few warnings on accurate pages (what the check is sure of), and
 * the deliberate alterations caught — numbers and names (capitalised, and lower-case tool names)
 * by a warning, negations at least by a question. The same figures `npm run eval -- --grounding`
 * prints. All of these wikis were tuned on (issue 36); a held-out one is measured by the eval.
 */
function share(m: PageGroundingMeasurement, kinds: readonly AlterationKind[], field: 'flagged' | 'warned'): number {
  return kinds.reduce((sum, kind) => sum + m.altered[kind][field], 0) / kinds.reduce((sum, kind) => sum + m.altered[kind].planted, 0);
}

describe('grounding on real model-written pages', () => {
  it('the sample wiki: no warning and no question; its altered numbers and names all warned, added negations caught at 90% or more', async () => {
    const m = await measureWikiFolder('example');
    expect(m.claims).toBeGreaterThan(20);
    expect(m.flagged).toBe(0);
    expect(m.questions).toBe(0);
    expect(share(m, ['number', 'name', 'tool'], 'warned')).toBe(1);
    expect(share(m, ['negation'], 'flagged')).toBeGreaterThanOrEqual(0.9);
  }, 120_000);

  // Issue 36's targets: warnings on at most 3% of claim sentences; numbers and names warned at 80% or more.
  // All changes caught (warning or question) stand at 85–94% on these wikis: negations are the weak part.
  it.each([
    ['played-wiki', 0.9],
    ['played-wiki-after', 0.9],
    ['played-wiki-3', 0.85],
    ['played-wiki-4', 0.85],
    ['played-wiki-5', 0.85],
    ['played-wiki-6', 0.82],
    ['played-wiki-7', 0.88],
  ])('%s: at most 3% of claim sentences warned; numbers and names warned at 80% or more; all changes caught at its share (%s) or more', async (folder, caught) => {
    const m = await measureWikiFolder(path.join(REPO_ROOT, 'test/fixtures', folder));
    expect(m.claims).toBeGreaterThan(250);
    expect(m.flagged / m.claims).toBeLessThanOrEqual(0.03);
    expect(share(m, ['number'], 'warned')).toBeGreaterThanOrEqual(0.8);
    expect(share(m, ['name', 'tool'], 'warned')).toBeGreaterThanOrEqual(0.8);
    expect(m.altered.tool.planted).toBeGreaterThan(20);
    expect(share(m, ['number', 'name', 'tool', 'negation'], 'flagged')).toBeGreaterThanOrEqual(caught);
  }, 300_000);
});
