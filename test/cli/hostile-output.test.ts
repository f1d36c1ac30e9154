import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';

/** Page text carrying terminal escape sequences reaches the operator's terminal only as plain text. */
const TITLE = 'Evil\x1b]0;pwned\x07 title\x1b[2J';
const SUMMARY = 'Clipboard\x1b]52;c;ZXZpbA==\x07 summary\x9b2J';

let root: string;
beforeAll(async () => {
  root = await initWorkspace();
  await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
  const yamlString = (text: string): string => JSON.stringify(text);
  await writeFile(
    path.join(root, 'wiki/concepts/evil.md'),
    `---\ntitle: ${yamlString(TITLE)}\nsummary: ${yamlString(SUMMARY)}\ntags: ["t\\e[31mag"]\nsources: [raw/x.md]\n---\n\nEvil body about sourdough\x1b]0;body\x07 starters.\n`,
  );
});

describe('no escape sequences reach the terminal', () => {
  it.each([
    ['search', ['search', 'sourdough']],
    ['status', ['status']],
    ['lint', ['lint']],
  ])('%s prints no ESC, BEL or C1 control', async (_name, args) => {
    const result = await runCli(args, { cwd: root });
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/[\x07\x1b\x9b\x9d]/);
  });

  it('search shows the title without its escapes, and --json keeps the data intact', async () => {
    const human = await runCli(['search', 'sourdough'], { cwd: root });
    expect(human.stdout).toContain('Evil title');
    const json = JSON.parse((await runCli(['search', 'sourdough', '--json'], { cwd: root })).stdout) as { results: Array<{ title: string }> };
    expect(json.results[0]?.title).toBe(TITLE);
  });
});
