import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';

/**
 * `.wiki/graph.html` holds what `wiki mcp` would serve (mcp.maxVisibility): a line that links
 * to a withheld page is withheld from a served page's text, as read_page withholds it.
 */
const page = (title: string, visibility: string, body: string): string =>
  `---\ntitle: ${title}\nsummary: About ${title.toLowerCase()}.\ntype: concept\nvisibility: ${visibility}\n---\n\n${body}\n`;

describe('wiki graph and withheld pages', () => {
  it("leaves out the line linking to a private page, and keeps the page's other lines", async () => {
    const root = await initWorkspace();
    await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
    await writeFile(path.join(root, 'wiki/concepts/salary-bands.md'), page('Salary bands', 'private', 'Band C pays a lot.'));
    await writeFile(path.join(root, 'wiki/concepts/hiring.md'), page('Hiring', 'public', 'We hire twice a year.\n\nBudget is in [[salary-bands]].\n\nThe panel has three people, see [[salary-bands|the pay grid]].'));
    const result = await runCli(['graph'], { cwd: root });
    expect(result.code).toBe(0);
    const html = await readFile(path.join(root, '.wiki/graph.html'), 'utf8');
    expect(html).toContain('We hire twice a year.');
    expect(html).not.toMatch(/Budget is in|salary-bands|Salary bands|pay grid|Band C/);
    // Good work: the owner who asks for private pages gets them, and the line.
    const owner = await runCli(['graph', '--out', '-', '--max-visibility', 'private'], { cwd: root });
    expect(owner.code).toBe(0);
    expect(owner.stdout).toContain('Budget is in');
  });
});
