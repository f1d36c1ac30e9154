import { mkdir, rm, writeFile } from 'node:fs/promises';
import { SMALL_WIKI_PAGES } from '../../src/search/fusion/semantic-strength.js';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { FACETED_PAGES, TOPIC_PAGES } from '../search/helpers.js';

let root: string;

beforeAll(async () => {
  root = await initWorkspace();
  for (const [pagePath, content] of Object.entries(TOPIC_PAGES)) {
    await mkdir(path.dirname(path.join(root, pagePath)), { recursive: true });
    await writeFile(path.join(root, pagePath), content);
  }
});

describe('wiki search', () => {
  it('prints the documented JSON shape', async () => {
    const result = await runCli(['search', 'sourdough starter', '--json', '--limit', '3'], { cwd: root });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as {
      query: string;
      results: Array<Record<string, unknown>>;
      lanes: Record<string, string>;
    };
    expect(json.query).toBe('sourdough starter');
    expect(json.lanes).toEqual({ lexical: 'ok', semantic: 'ok', token: 'ok' });
    expect(json.results.length).toBeLessThanOrEqual(3);
    const top = json.results[0];
    expect(top).toMatchObject({ key: 'sourdough', path: 'wiki/concepts/sourdough.md', title: 'Sourdough bread', summary: 'Bread leavened by a wild yeast starter' });
    expect(typeof top?.score).toBe('number');
    expect(top?.lanes).toMatchObject({ lexical: 1 });
    expect(top).not.toHaveProperty('contributions');
  });

  it('explains each lane’s status, rank and contribution', async () => {
    const result = await runCli(['search', 'orbit', 'telescope', '--explain'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Telescope/);
    expect(result.stdout).toMatch(/lexical #\d+ \+0\.\d{4}/);
    expect(result.stdout).toMatch(/lanes: lexical ok · semantic ok · token ok/);
    const json = JSON.parse((await runCli(['--json', 'search', 'orbit telescope', '--explain'], { cwd: root })).stdout) as {
      results: Array<{ score: number; contributions: Record<string, number> }>;
    };
    const top = json.results[0];
    const sum = Object.values(top?.contributions ?? {}).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(top?.score ?? -1, 12);
  });

  it.each([
    ['an empty query', ['search', '']],
    ['no query', ['search']],
    ['a bad limit', ['search', 'bread', '--limit', 'many']],
    ['a min score that is not a number', ['search', 'bread', '--min-score', 'high']],
    ['two output modes', ['search', 'bread', '--files', '--full']],
    ['a query that only excludes', ['search', '-bread']],
    ['a mistyped long option', ['search', 'bread', '--limt', '3']],
  ])('exits 2 with a message on %s', async (_name, args) => {
    const result = await runCli(args, { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/error: /);
    expect(result.stdout).toBe('');
  });

  it('answers a query of stopwords with no results, not a crash', async () => {
    const result = await runCli(['search', 'the of and', '--json'], { cwd: root });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ query: 'the of and', results: [] });
    const human = await runCli(['search', 'the of and'], { cwd: root });
    expect(human.stdout).toMatch(/No pages match/);
  });

  it('reports a lane that is off', async () => {
    const result = await runCli(['search', 'bread', '--json'], { cwd: root, env: { WIKI_EMBEDDER: 'none' } });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { lanes: Record<string, string> }).lanes.semantic).toMatch(/^skipped: /);
  });

  describe('query syntax and output modes', () => {
    const files = async (...args: string[]): Promise<string[]> => {
      const result = await runCli(['search', ...args, '--files'], { cwd: root });
      const paths = result.stdout.split('\n').filter(Boolean);
      // No hit is exit 1 (found: false), as for `query`.
      expect(result.code).toBe(paths.length > 0 ? 0 : 1);
      return result.stdout.split('\n').filter(Boolean);
    };

    it('prints paths only with --files, as a list under --json', async () => {
      const paths = await files('attention');
      expect(paths).toContain('wiki/concepts/attention.md');
      expect(paths).toContain('wiki/concepts/multi-head-attention.md');
      expect(paths.every((line) => /^wiki\/\S+\.md$/.test(line))).toBe(true);
      const json = JSON.parse((await runCli(['search', 'attention', '--files', '--json'], { cwd: root })).stdout) as { files: string[] };
      expect(json.files).toEqual(paths);
    });

    it('keeps only pages holding an "exact phrase", whatever the case and markup between its words', async () => {
      expect(await files('"Attention Heads"')).toEqual(['wiki/concepts/multi-head-attention.md']);
    });

    it('falls back to the words of a phrase no page holds, and says so (issue 36)', async () => {
      const human = await runCli(['search', '"heads attention"'], { cwd: root });
      expect(human.code).toBe(0);
      expect(human.stdout.split('\n')[0]).toBe('No page holds the exact phrase "heads attention"; searched for its words instead:');
      expect(human.stdout).toContain('wiki/concepts/multi-head-attention.md');
      const json = JSON.parse((await runCli(['--json', 'search', '"heads attention"'], { cwd: root })).stdout) as { phrasesNotFound?: string[]; found: boolean };
      expect(json).toMatchObject({ found: true, phrasesNotFound: ['heads attention'] });
      // A phrase that matched says nothing of the kind; words no page holds still find nothing (exit 1).
      expect((await runCli(['--json', 'search', '"Attention Heads"'], { cwd: root })).stdout).not.toContain('phrasesNotFound');
      const nothing = await runCli(['search', '"zyzzyva quokka"'], { cwd: root });
      expect(nothing.code).toBe(1);
      expect(nothing.stdout).not.toContain('exact phrase');
      // Paths alone say it on stderr; --files --json and --full say it too.
      const paths = await runCli(['search', '"heads attention"', '--files'], { cwd: root });
      expect(paths.stderr).toContain('no page holds the exact phrase "heads attention"; these pages hold its words');
      expect(paths.stdout.split('\n')).toContain('wiki/concepts/multi-head-attention.md');
      expect(JSON.parse((await runCli(['--json', 'search', '"heads attention"', '--files'], { cwd: root })).stdout)).toMatchObject({ phrasesNotFound: ['heads attention'] });
      expect((await runCli(['search', '"heads attention"', '--full'], { cwd: root })).stdout.split('\n')[0]).toBe('No page holds the exact phrase "heads attention"; searched for its words instead:');
      // An exclusion still holds in the fallback.
      expect(await files('"heads attention"', '-multi')).not.toContain('wiki/concepts/multi-head-attention.md');
    });

    it('answers a phrase only a never-surfaced page holds as it answers a phrase no page holds', async () => {
      const hidden = path.join(root, 'wiki/concepts/hidden-heads.md');
      await writeFile(hidden, '---\ntitle: Hidden heads\ntype: concept\nusage_mode: never\n---\n\nThe heads attention survey draft.\n');
      try {
        const json = JSON.parse((await runCli(['--json', 'search', '"heads attention"'], { cwd: root })).stdout) as { phrasesNotFound?: string[]; results: Array<{ path: string }> };
        expect(json.phrasesNotFound).toEqual(['heads attention']);
        expect(json.results.map((r) => r.path)).not.toContain('wiki/concepts/hidden-heads.md');
      } finally {
        await rm(hidden);
      }
    });

    it('leaves out pages holding a -word in any form, and a -"phrase"', async () => {
      // The attention page is tagged and summarised with "transformers"; -transformer leaves it out too.
      for (const query of [['attention', '-transformer'], ['attention -transformers'], ['attention', '-"weigh tokens"']]) {
        const paths = await files(...query);
        expect(paths).not.toContain('wiki/concepts/attention.md');
        expect(paths).toContain('wiki/concepts/multi-head-attention.md');
      }
    });

    it('drops results below --min-score', async () => {
      const all = JSON.parse((await runCli(['search', 'attention', '--json'], { cwd: root })).stdout) as { results: Array<{ score: number }> };
      const scores = all.results.map((r) => r.score);
      expect(scores.length).toBeGreaterThan(1);
      const threshold = ((scores[0] ?? 0) + (scores[1] ?? 0)) / 2;
      const kept = JSON.parse((await runCli(['search', 'attention', '--json', '--min-score', String(threshold)], { cwd: root })).stdout) as {
        results: Array<{ score: number }>;
      };
      expect(kept.results.map((r) => r.score)).toEqual(scores.filter((score) => score >= threshold));
      expect(kept.results.length).toBeLessThan(scores.length);
    });

    it('prints each result page whole with --full, and adds its text under --json', async () => {
      const text = await runCli(['search', 'sourdough', '--full', '--limit', '1'], { cwd: root });
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('wiki/concepts/sourdough.md');
      expect(text.stdout).toContain(TOPIC_PAGES['wiki/concepts/sourdough.md']?.trim());
      const json = JSON.parse((await runCli(['search', 'sourdough', '--full', '--json', '--limit', '1'], { cwd: root })).stdout) as {
        results: Array<{ path: string; content: string }>;
      };
      expect(json.results[0]?.content).toBe(TOPIC_PAGES['wiki/concepts/sourdough.md']);
    });
  });
});

describe('wiki search: the weights fusion used', () => {
  interface WeightsJson {
    weights: Record<string, number>;
    semanticWeightFactor: number;
  }

  it('--explain shows them; in a wiki too small to measure the semantic lane, scaled by its size alone', async () => {
    const json = JSON.parse((await runCli(['--json', 'search', 'sourdough starter'], { cwd: root })).stdout) as WeightsJson;
    const pages = Number(/(\d+) pages indexed/.exec((await runCli(['status'], { cwd: root })).stdout)?.[1]);
    expect(pages).toBeLessThan(SMALL_WIKI_PAGES);
    expect(json.semanticWeightFactor).toBeCloseTo(pages / SMALL_WIKI_PAGES, 12);
    expect(json.weights).toMatchObject({ lexical: 1, token: 0.2 });
    expect(json.weights.semantic).toBeCloseTo(1.5 * json.semanticWeightFactor, 12);
    const result = await runCli(['search', 'sourdough starter', '--explain'], { cwd: root });
    expect(result.stdout).toContain(`(semantic: the configured weight × ${String(Number((pages / SMALL_WIKI_PAGES).toFixed(3)))}, from how well the lane finds this wiki's pages and, under 50 pages, the wiki's size)`);
  });

  it('where the lane was measured, --explain, --json and wiki status say what the configured semantic weight was multiplied by', async () => {
    const faceted = await initWorkspace();
    for (const [pagePath, content] of Object.entries(FACETED_PAGES)) {
      await mkdir(path.dirname(path.join(faceted, pagePath)), { recursive: true });
      await writeFile(path.join(faceted, pagePath), content);
    }
    const json = JSON.parse((await runCli(['--json', 'search', 'attention heads'], { cwd: faceted })).stdout) as WeightsJson;
    const factor = json.semanticWeightFactor;
    expect(factor).not.toBe(1);
    expect(json.weights.semantic).toBeCloseTo(1.5 * factor, 12);
    const shown = String(Number(factor.toFixed(3)));
    const explained = await runCli(['search', 'attention heads', '--explain'], { cwd: faceted });
    expect(explained.stdout).toContain(`(semantic: the configured weight × ${shown}, from how well the lane finds this wiki's pages and, under 50 pages, the wiki's size)`);
    const status = await runCli(['status'], { cwd: faceted });
    expect(status.stdout).toContain(`semantic weight × ${shown} (from how well the lane finds this wiki's pages and, under 50 pages, the wiki's size)`);
  });
});
