import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { pageText } from '../search/helpers.js';

let root: string;

beforeAll(async () => {
  root = await initWorkspace();
  await writeFile(
    path.join(root, 'raw', 'bridge.md'),
    '# The bridge\n\nThe Golden Gate Bridge opened in 1937 after four years of work.\nIts main span is 1,280 metres long.\n',
  );
  await mkdir(path.join(root, 'wiki', 'entities'), { recursive: true });
  await writeFile(
    path.join(root, 'wiki', 'entities', 'golden-gate.md'),
    pageText('Golden Gate Bridge', 'A bridge', 'The Golden Gate Bridge opened in 1937 after four years of work.\nIts main span is 2,000 metres long.', { sources: ['raw/bridge.md'] }),
  );
});

describe('wiki facts (through the built CLI)', () => {
  it('rebuilds the store, searches it, shows a fact with its provenance and counts', async () => {
    const rebuild = await runCli(['facts', 'rebuild', '--json'], { cwd: root });
    expect(rebuild.code).toBe(0);
    expect(JSON.parse(rebuild.stdout)).toMatchObject({ sources: { extracted: 1 }, facts: { inserted: 2 } });

    const search = await runCli(['facts', 'search', 'main span', '--json'], { cwd: root });
    expect(search.code).toBe(0);
    const hits = (JSON.parse(search.stdout) as { facts: { id: string; text: string }[] }).facts;
    expect(hits.map((h) => h.text)).toEqual(['Its main span is 1,280 metres long.']);

    const show = await runCli(['facts', 'show', hits[0]!.id], { cwd: root });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('raw/bridge.md#L4');

    const stats = await runCli(['facts', 'stats', '--json'], { cwd: root });
    expect(JSON.parse(stats.stdout)).toMatchObject({ live: 2, sources: 1, tombstoned: 0 });

    const missing = await runCli(['facts', 'show', 'f-000000000000'], { cwd: root });
    expect(missing.code).toBe(2);
  });

  it('lint flags the unsupported number, quotes the closest fact and scores the page', async () => {
    await runCli(['facts', 'rebuild'], { cwd: root });
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const json = JSON.parse(lint.stdout) as { findings: { rule: string; path: string; message: string }[]; grounding: { path: string; score: number }[] };
    const grounding = json.findings.filter((f) => f.rule === 'unsupported-number' || f.rule === 'ungrounded');
    expect(grounding).toHaveLength(1);
    expect(grounding[0]).toMatchObject({ rule: 'unsupported-number', path: 'wiki/entities/golden-gate.md' });
    expect(grounding[0]!.message).toContain('Its main span is 1,280 metres long.');
    expect(json.grounding).toEqual([{ path: 'wiki/entities/golden-gate.md', score: 0.5, sentences: 2 }]);

    const status = await runCli(['status', '--json'], { cwd: root });
    expect(JSON.parse(status.stdout)).toMatchObject({ grounding: { pages: 1, mean: 0.5 } });
  });

  it('query --facts answers "no facts found" without any model when nothing matches', async () => {
    const result = await runCli(['query', '--facts', 'zeppelin hangar capacity', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ answer: 'no facts found', modelCalled: false, facts: [] });
  });
});
