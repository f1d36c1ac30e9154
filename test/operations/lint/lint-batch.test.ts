import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKept, markKept, parseKeeps, rememberKept } from '../../../src/operations/lint/lint-batch.js';
import type { Finding } from '../../../src/wiki/validate/finding.js';
import { tempDir } from '../../helpers/cli.js';

const PAGE = 'wiki/concepts/compare.md';

async function workspaceWithPage(): Promise<string> {
  const root = await tempDir();
  await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
  await mkdir(path.join(root, '.wiki'), { recursive: true });
  await writeFile(path.join(root, PAGE), '---\ntitle: Compare\n---\n\nOne sentence here. Another sentence on the same line.\n');
  return root;
}

const finding = (message: string, line = 5): Finding => ({ rule: 'miscited', severity: 'warning', path: PAGE, line, message });

describe('sentences a lint review keeps', () => {
  it('two sentences on one line are two findings: two KEEP lines for that place keep both (the played run kept one, the other came back)', async () => {
    const root = await workspaceWithPage();
    const batch = [finding('"One sentence here." …'), finding('"Another sentence on the same line." …')];
    const keeps = parseKeeps(`KEEP ${PAGE}:5 :: paraphrase of L10-12\nKEEP ${PAGE}:5 :: says what L14 says`);
    expect(await rememberKept(root, await loadKept(root), batch, keeps)).toBe(2);
    const marked = markKept(root, batch, await loadKept(root));
    expect(marked.map((f) => f.keptBecause)).toEqual(['paraphrase of L10-12', 'says what L14 says']);
  });

  it('marks only what was kept, and a kept sentence is open again once its line changes', async () => {
    const root = await workspaceWithPage();
    const batch = [finding('"One sentence here." …'), finding('"Another sentence on the same line." …')];
    await rememberKept(root, await loadKept(root), batch, parseKeeps(`KEEP ${PAGE}:5 :: fine as it is`));
    expect(markKept(root, batch, await loadKept(root)).map((f) => f.keptBecause)).toEqual(['fine as it is', undefined]);
    await writeFile(path.join(root, PAGE), '---\ntitle: Compare\n---\n\nOne sentence here, edited. Another sentence on the same line.\n');
    expect(markKept(root, batch, await loadKept(root)).map((f) => f.keptBecause)).toEqual([undefined, undefined]);
  });

  it('a kept sentence stays kept when another part of its page changes (a played review saw a fix two sections away undo every keep of the page)', async () => {
    const root = await workspaceWithPage();
    const batch = [finding('"One sentence here." …')];
    await rememberKept(root, await loadKept(root), batch, parseKeeps(`KEEP ${PAGE}:5 :: fine as it is`));
    await writeFile(path.join(root, PAGE), '---\ntitle: Compare\n---\n\nOne sentence here. Another sentence on the same line.\n\nA new paragraph the fix added.\n');
    expect(markKept(root, batch, await loadKept(root)).map((f) => f.keptBecause)).toEqual(['fine as it is']);
  });

  it('a quote after the place picks which sentence of a shared line is kept (the played review\'s quoted KEEP lines were dropped)', async () => {
    const root = await workspaceWithPage();
    const batch = [finding('"One sentence here." …'), finding('"Another sentence on the same line." …')];
    const keeps = parseKeeps(`KEEP ${PAGE}:5 ("Another sentence on the same line.") :: says what L14 says`);
    expect(keeps).toEqual([{ path: PAGE, line: 5, reason: 'says what L14 says', quote: 'Another sentence on the same line.' }]);
    expect(await rememberKept(root, await loadKept(root), batch, keeps)).toBe(1);
    expect(markKept(root, batch, await loadKept(root)).map((f) => f.keptBecause)).toEqual([undefined, 'says what L14 says']);
  });

  it('never marks a finding of another rule', async () => {
    const root = await workspaceWithPage();
    const orphan: Finding = { rule: 'orphan', severity: 'warning', path: PAGE, message: 'no other page links to [[compare]]' };
    expect(markKept(root, [orphan], await loadKept(root))).toEqual([orphan]);
  });
});
