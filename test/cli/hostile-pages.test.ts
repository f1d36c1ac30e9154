import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * Pages that would be damaged or multiplied by a rewrite, through the built CLI: `lint`
 * reports them, `lint --fix` leaves every byte of them as it was.
 */
interface LintJson {
  findings: Array<{ rule: string; path: string; message: string; severity: string; fix?: string }>;
  changes: string[];
}

const laughs = [
  '---',
  'title: Laughs',
  'summary: A page that multiplies itself.',
  'type: concept',
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  '---',
  '',
  'Body.',
  '',
].join('\n');

/** Deeply nested flow mappings: re-serialised in block style they grow with the square of the depth. */
function nested(depth: number): string {
  const value = `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`;
  // No `created`/`updated`: lint --fix would fill them in, re-serialising the frontmatter.
  return `---\ntitle: Nested\nsummary: Deep flow mappings.\ntype: concept\nx: ${value}\n---\n\nBody.\n`;
}

const latin1 = Buffer.concat([
  Buffer.from('---\ntitle: Caf', 'utf8'),
  Buffer.from([0xe9]),
  Buffer.from('\nsummary: A page saved as Latin-1.\ntype: concept\n---\n\nD', 'utf8'),
  Buffer.from([0xe9]),
  Buffer.from('j', 'utf8'),
  Buffer.from([0xe0]),
  Buffer.from(' vu.\n', 'utf8'),
]);

const cases: Array<{ name: string; file: string; bytes: Buffer; rule: string; message: RegExp }> = [
  { name: 'a billion-laughs frontmatter', file: 'wiki/concepts/laughs.md', bytes: Buffer.from(laughs), rule: 'frontmatter', message: /uses the YAML anchor &a/ },
  { name: 'a Latin-1 page', file: 'wiki/concepts/latin.md', bytes: latin1, rule: 'encoding', message: /is not valid UTF-8 \(first bad byte at offset 14\)/ },
];

describe('hostile pages under lint and lint --fix', () => {
  it.each(cases)('$name: reported as $rule, never rewritten', async ({ file, bytes, rule, message }) => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/a.md'), '# A\n');
    await writeFile(path.join(root, file), bytes);

    const fix = await runCli(['lint', '--fix', '--no-llm', '--json'], { cwd: root });
    expect(fix.stderr).not.toMatch(/unexpected failure/);
    const fixed = JSON.parse(fix.stdout) as LintJson;
    expect(fixed.findings.filter((f) => f.path === file && f.rule === rule).map((f) => f.message)).toEqual([expect.stringMatching(message)]);
    expect(fixed.changes.filter((change) => change.startsWith(`${file}:`))).toEqual([]);
    expect((await readFile(path.join(root, file))).equals(bytes)).toBe(true);

    if (rule !== 'oversized-repair') {
      // Without --fix the page is reported just the same.
      const plain = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson;
      expect(plain.findings.some((f) => f.path === file && f.rule === rule)).toBe(true);
    }
    expect((await stat(path.join(root, file))).size).toBe(bytes.length);
  });

  it('deeply nested flow mappings are not re-serialised by a repair: the dates are added and the owner\'s line is kept as written (it once grew the page past twice its size)', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/a.md'), '# A\n');
    const file = 'wiki/concepts/nested.md';
    const text = nested(150);
    await writeFile(path.join(root, file), text);
    const fix = await runCli(['lint', '--fix', '--no-llm', '--json'], { cwd: root });
    expect(fix.stderr).not.toMatch(/unexpected failure/);
    const after = await readFile(path.join(root, file), 'utf8');
    const owners = text.split('\n').find((line) => line.startsWith('x: ')) as string;
    expect(after).toContain(owners);
    expect(after.length).toBeLessThan(text.length * 2);
  });

  it('a small page missing its dates is still repaired (the growth cap leaves room for a frontmatter)', async () => {
    const root = await freshWorkspace();
    const file = 'wiki/concepts/small.md';
    const text = pageText('concept', 'small').replace(/^created: .*\n|^updated: .*\n/gm, '');
    await writeFile(path.join(root, file), text);
    const fixed = JSON.parse((await runCli(['lint', '--fix', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson;
    expect(fixed.changes.some((change) => change.startsWith(`${file}: set created`))).toBe(true);
    expect(fixed.findings.filter((f) => f.rule === 'oversized-repair')).toEqual([]);
  });
});
