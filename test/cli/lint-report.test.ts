import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorkspace, REPO_ROOT, runCli, tempDir } from '../helpers/cli.js';

const PLAYED = path.join(REPO_ROOT, 'test/fixtures/played-wiki');

async function exampleWiki(): Promise<string> {
  const parent = await tempDir();
  expect((await runCli(['init', '--example', 'w'], { cwd: parent })).code).toBe(0);
  return path.join(parent, 'w');
}

describe('grounding on the sample wiki (wiki init --example)', () => {
  it('has no grounding warning before or after `wiki facts rebuild`, and status says what it measures, as lint counts it', async () => {
    const root = await exampleWiki();
    expect(JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout)).toMatchObject({ errors: 0, warnings: 0 });
    expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
    const lint = await runCli(['lint', '--no-llm'], { cwd: root });
    expect(lint.stdout).toMatch(/No problems found/);
    const status = await runCli(['status'], { cwd: root });
    expect(status.stdout).toMatch(/Grounded: 100% of \d+ claim sentence\(s\) on 10 page\(s\) match their cited lines or their sources' facts/);
    expect(status.stdout).toMatch(/^Lint: +No problems found\./m);
  });

  it('status and lint agree on a wiki with flagged sentences', async () => {
    const root = await exampleWiki();
    const page = path.join(root, 'wiki/sources/luhmann-slip-box.md');
    await writeFile(page, (await readFile(page, 'utf8')).replace('About 90,000 cards', 'About 90,007 cards'));
    await runCli(['facts', 'rebuild'], { cwd: root });
    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string; message: string }> };
    const grounding = lint.findings.filter((f) => ['ungrounded', 'miscited', 'unsupported-number'].includes(f.rule));
    expect(grounding).toHaveLength(1);
    expect(grounding[0]?.message).toMatch(/90,007 appears nowhere in its cited lines \(raw\/zettelkasten-notes\.md#L13-17 say: ".*90,000/);
    const status = JSON.parse((await runCli(['status', '--json'], { cwd: root })).stdout) as { grounding: { flagged: number } };
    expect(status.grounding.flagged).toBe(grounding.length);
  });
});

describe('what a grounding finding quotes', () => {
  it('quotes the cited lines themselves, numbered, not the slack around them, and the sentence with its own spacing', async () => {
    const root = await initWorkspace();
    const raw = Array.from({ length: 30 }, (_, i) => `Filler line ${i + 1} talks about harbour cranes and tides.`);
    raw[13] = 'Slack line fourteen describes the merchant fleet of Lisbon.';
    raw[14] = 'Slack line fifteen describes the merchant fleet of Porto.';
    raw[15] = 'Slack line sixteen describes the merchant fleet of Faro.';
    raw[16] = 'The old RFC proposed pattern negation as `if !let PAT = EXPR { BODY }` for the same purpose.';
    await mkdir(path.join(root, 'raw'), { recursive: true });
    await writeFile(path.join(root, 'raw/rfc.md'), `${raw.join('\n')}\n`);
    await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
    await writeFile(
      path.join(root, 'wiki/concepts/negation.md'),
      [
        '---',
        'title: Negation',
        'summary: Pattern negation.',
        'type: concept',
        'sources: [raw/rfc.md]',
        'created: 2026-01-01',
        'updated: 2026-01-01',
        '---',
        '',
        'Volcanic eruptions reshaped the northern glaciers while `if !let` and `let nope: ! = { return; };` stayed unused. <!-- from: raw/rfc.md#L17 -->',
        '',
      ].join('\n'),
    );
    expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string; path: string; message: string }> };
    const flagged = lint.findings.filter((f) => f.path === 'wiki/concepts/negation.md' && f.rule === 'miscited');
    expect(flagged).toHaveLength(1);
    const message = flagged[0]?.message ?? '';
    expect(message).toContain('`if !let` and `let nope: ! = { return; };` stayed unused');
    expect(message).toContain('raw/rfc.md#L17 say: "17│The old RFC proposed pattern negation as `if !let PAT = EXPR { BODY }` for the same purpose."');
    expect(message).not.toMatch(/Slack line|merchant fleet/);
  });

  it('quotes a long cited range from the line that matched the sentence best (the first 320 characters of 40 lines rarely hold it)', async () => {
    const root = await initWorkspace();
    const raw = Array.from({ length: 60 }, (_, i) => `Filler line ${i + 1} talks about harbour cranes, tides and the weather over the estuary in spring.`);
    raw[44] = 'The lighthouse keeper lit the northern lamp during the summer storms of that year.';
    await mkdir(path.join(root, 'raw'), { recursive: true });
    await writeFile(path.join(root, 'raw/log.md'), `${raw.join('\n')}\n`);
    await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
    const page = ['---', 'title: Lamp', 'summary: The lamp.', 'type: concept', 'sources: [raw/log.md]', 'created: 2026-01-01', 'updated: 2026-01-01', '---', ''];
    await writeFile(path.join(root, 'wiki/concepts/lamp.md'), [...page, 'The lighthouse keeper never lit the northern lamp during the summer storms of that year. <!-- from: raw/log.md#L5-L50 -->', ''].join('\n'));
    expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string; path: string; message: string }> };
    const message = lint.findings.find((f) => f.path === 'wiki/concepts/lamp.md' && f.rule === 'miscited')?.message ?? '';
    expect(message).toContain('raw/log.md#L5-50 say: "… 45│The lighthouse keeper lit the northern lamp');
  });
});

describe('the lint report', () => {
  it('shows about 50 lines by default, errors and structure before grounding, and says how to see the rest; --rule and --all show them all', async () => {
    const root = await initWorkspace();
    await cp(path.join(PLAYED, 'wiki'), path.join(root, 'wiki'), { recursive: true, force: true });
    await cp(path.join(PLAYED, 'raw'), path.join(root, 'raw'), { recursive: true });
    await cp(path.join(PLAYED, 'schema.md'), path.join(root, 'schema.md'));
    await runCli(['facts', 'rebuild'], { cwd: root });
    const json = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string; severity: string }>; warnings: number };
    const miscited = json.findings.filter((f) => f.rule === 'miscited').length;
    expect(miscited).toBeGreaterThan(3);

    const plain = await runCli(['lint', '--no-llm'], { cwd: root });
    const lines = plain.stdout.split('\n');
    expect(lines.length).toBeLessThanOrEqual(55);
    expect(plain.stdout.indexOf('orphan')).toBeLessThan(plain.stdout.indexOf('miscited'));
    // A rule with more warnings than the default view shows says how to see the rest.
    const shownWarnings = json.findings.filter((f) => f.rule === 'miscited' && f.severity === 'warning').length;
    if (shownWarnings > 3) {
      expect(plain.stdout).toMatch(/… and \d+ more \(wiki lint --rule miscited\)/);
      expect(plain.stdout).toMatch(/`wiki lint --all` lists every finding/);
    }
    expect(plain.stdout).toMatch(new RegExp(`0 errors, ${json.warnings} warnings`));

    const one = await runCli(['lint', '--no-llm', '--rule', 'miscited'], { cwd: root });
    expect(one.stdout.split('\n').filter((line) => /^ {2}wiki\//.test(line))).toHaveLength(miscited);
    expect(one.stdout).not.toMatch(/^orphan/m);
    const all = await runCli(['lint', '--no-llm', '--all'], { cwd: root });
    expect(all.stdout.split('\n').filter((line) => /^ {2}wiki\//.test(line))).toHaveLength(json.findings.length);
    // --json is unchanged: every finding, whatever the view.
    expect(JSON.parse((await runCli(['lint', '--no-llm', '--json', '--all'], { cwd: root })).stdout).findings).toHaveLength(json.findings.length);
  });
});

describe('stale pages', () => {
  it('lint warns about a page marked stale, naming the changed source and since when, and status lists it', async () => {
    const root = await exampleWiki();
    const page = path.join(root, 'wiki/entities/niklas-luhmann.md');
    await writeFile(page, (await readFile(page, 'utf8')).replace('updated: ', 'stale_since: 2026-11-20\nupdated: '));
    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string; path: string; message: string }> };
    const stale = lint.findings.filter((f) => f.rule === 'stale-page');
    expect(stale).toEqual([expect.objectContaining({ path: 'wiki/entities/niklas-luhmann.md', message: expect.stringMatching(/^stale since 2026-11-20: raw\/zettelkasten-notes\.md changed/) })]);
    const status = await runCli(['status'], { cwd: root });
    expect(status.stdout).toMatch(/Stale: +1 page\(s\) marked since a source changed: wiki\/entities\/niklas-luhmann\.md since 2026-11-20 \(raw\/zettelkasten-notes\.md changed\)/);
  });
});
