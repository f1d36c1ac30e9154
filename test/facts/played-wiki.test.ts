import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureWikiFolder, type PageGroundingMeasurement } from '../../scripts/measure/grounding-pages.js';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * Grounding on pages a (played) capable model wrote through the CLI from three long public
 * documents (test/fixtures/played-wiki; and later ones, test/fixtures/played-wiki-after, -3 and
 * -4 and -5): few false alarms on accurate pages, and the
 * deliberate alterations caught. The same figures `npm run eval -- --grounding` prints.
 */
/** Share of all deliberate changes flagged (numbers, names and negations together): the figure. */
function alteredShare(m: PageGroundingMeasurement): number {
  const kinds = Object.values(m.altered);
  return kinds.reduce((sum, a) => sum + a.flagged, 0) / kinds.reduce((sum, a) => sum + a.planted, 0);
}

describe('grounding on real model-written pages', () => {
  it('the sample wiki: no claim flagged, after a facts rebuild too; its altered numbers and names all flagged, added negations at 90% or more', async () => {
    const m = await measureWikiFolder('example');
    expect(m.claims).toBeGreaterThan(20);
    expect(m.flagged).toBe(0);
    expect(m.altered.number.flagged).toBe(m.altered.number.planted);
    expect(m.altered.name.flagged).toBe(m.altered.name.planted);
    expect(m.altered.negation.flagged / m.altered.negation.planted).toBeGreaterThanOrEqual(0.9);
  }, 120_000);

  // A negation is reported only when its polarity clearly differs (issue 27, item 2): a denial the cited
  // lines word their own way is support, which costs some planted negations (a "not" put into a sentence
  // whose cited lines deny its words elsewhere). The 90% figure holds for all changes together.
  it('the played wiki: at most 5% of claim sentences flagged; 90% of all deliberate changes caught, each kind at 85% or more', async () => {
    const m = await measureWikiFolder(path.join(REPO_ROOT, 'test/fixtures/played-wiki'));
    expect(m.claims).toBeGreaterThan(350);
    expect(m.flagged / m.claims).toBeLessThanOrEqual(0.05);
    expect(alteredShare(m)).toBeGreaterThanOrEqual(0.9);
    for (const kind of ['number', 'name', 'negation'] as const) {
      expect(m.altered[kind].planted).toBeGreaterThan(15);
      expect(m.altered[kind].flagged / m.altered[kind].planted).toBeGreaterThanOrEqual(0.85);
    }
  }, 300_000);

  it('the second played wiki (written after the check was tuned; the false-alarm classes a played lint run found on it fixed since): at most 5% flagged; 88% of all changes caught, each kind at 85% or more', async () => {
    const m = await measureWikiFolder(path.join(REPO_ROOT, 'test/fixtures/played-wiki-after'));
    expect(m.claims).toBeGreaterThan(250);
    expect(m.flagged / m.claims).toBeLessThanOrEqual(0.05);
    expect(alteredShare(m)).toBeGreaterThanOrEqual(0.88);
    for (const kind of ['number', 'name', 'negation'] as const) expect(m.altered[kind].flagged / m.altered[kind].planted).toBeGreaterThanOrEqual(0.85);
  }, 300_000);

  // Later played wikis, as regression guards at what they measure today: each one's player or a
  // played review of lint's findings named false-alarm classes, worked on since.
  it.each([
    ['third', 'test/fixtures/played-wiki-3', 0.055],
    ['fourth', 'test/fixtures/played-wiki-4', 0.035],
    ['fifth', 'test/fixtures/played-wiki-5', 0.06],
    ['sixth', 'test/fixtures/played-wiki-6', 0.085],
    // Held out: written after the check's last change, nothing tuned on it.
    ['seventh (held out)', 'test/fixtures/played-wiki-7', 0.04],
  ])('the %s played wiki: at most its share flagged (5.5%, 3.5%, 6%, 8.5%, 4%); numbers, names and negations each caught at 75% or more', async (_name, folder, most) => {
    const m = await measureWikiFolder(path.join(REPO_ROOT, folder));
    expect(m.claims).toBeGreaterThan(250);
    expect(m.flagged / m.claims).toBeLessThanOrEqual(most);
    for (const kind of ['number', 'name', 'negation'] as const) expect(m.altered[kind].flagged / m.altered[kind].planted).toBeGreaterThanOrEqual(0.75);
  }, 300_000);
});
