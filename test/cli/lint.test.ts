import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorkspace, runCli, tempDir } from '../helpers/cli.js';

async function writePage(root: string, rel: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), text);
}

/** A listed, linked, sourced concept page, so only the rules a test provokes fire. */
async function addPage(root: string, key: string, body: string, extra = ''): Promise<void> {
  await writePage(root, 'raw/a.md', 'source\n');
  await writePage(
    root,
    `wiki/concepts/${key}.md`,
    `---\ntitle: ${key}\nsummary: About ${key}.\ntype: concept\nsources: [raw/a.md]\ncreated: 2026-01-01\nupdated: 2026-01-01\n${extra}---\n\n${body}\n`,
  );
}

interface JsonReport {
  findings: Array<Record<string, unknown>>;
  errors: number;
  warnings: number;
  changes?: string[];
}

describe('wiki lint', () => {
  it('exits 0 on a fresh workspace, with --no-llm too', async () => {
    const root = await initWorkspace();
    const human = await runCli(['lint'], { cwd: root });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/No problems found/);
    const deterministic = await runCli(['lint', '--no-llm', '--strict'], { cwd: root });
    expect(deterministic.code).toBe(0);
  });

  it('exits 1 on errors and prints the JSON shape', async () => {
    const root = await initWorkspace();
    await addPage(root, 'transformer', 'Links [[transformers]] and [[nowhere]].');
    const result = await runCli(['lint', '--json'], { cwd: root });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(Object.keys(report)).toEqual(['findings', 'errors', 'warnings', 'questions']);
    expect(report.errors).toBe(2);
    expect(report.warnings).toBe(2); // unindexed + orphan
    for (const finding of report.findings) {
      expect(Object.keys(finding)).toEqual(['rule', 'severity', 'path', 'line', 'message', 'fix']);
    }
    expect(report.findings).toContainEqual({
      rule: 'broken-link',
      severity: 'error',
      path: 'wiki/concepts/transformer.md',
      line: 10,
      message: 'link [[nowhere]] names a missing page "nowhere"; no existing page has a similar key',
      fix: 'create the page "nowhere" or remove the link',
    });
    expect(report.findings.find((f) => f.rule === 'unindexed')?.line).toBeNull();
  });

  it('warnings alone exit 0, or 1 with --strict', async () => {
    const root = await initWorkspace();
    await addPage(root, 'lonely', 'Nobody links here.');
    const lax = await runCli(['lint'], { cwd: root });
    expect(lax.code).toBe(0);
    expect(lax.stdout).toMatch(/^orphan \(1 warning\)$/m);
    expect(lax.stdout).toMatch(/^unindexed \(1 warning\)$/m);
    expect(lax.stdout).toMatch(/0 errors, 2 warnings/);
    const strict = await runCli(['lint', '--strict', '--json'], { cwd: root });
    expect(strict.code).toBe(1);
    expect((JSON.parse(strict.stdout) as JsonReport).warnings).toBe(2);
  });

  it('--fix --no-llm repairs, lists every change, and a second run changes nothing', async () => {
    const root = await initWorkspace();
    await addPage(root, 'transformer', 'See [[attention]].');
    await addPage(root, 'attention', 'Used by [[transformers|the model]].');
    const first = await runCli(['lint', '--fix', '--no-llm'], { cwd: root });
    expect(first.code).toBe(0);
    // Two repairs, and each page's refs brought in step with its links.
    expect(first.stdout).toMatch(/Repaired \(4\):/);
    expect(first.stdout).toContain('wiki/concepts/attention.md: added to refs: transformer (linked from the body)');
    expect(first.stdout).toContain('wiki/concepts/transformer.md: added to refs: attention (linked from the body)');
    expect(first.stdout).toContain('wiki/concepts/attention.md: link `[[transformers]]` → `[[transformer]]`');
    expect(first.stdout).toContain('wiki/index.md: listed 2 unindexed pages');
    expect(await readFile(path.join(root, 'wiki/concepts/attention.md'), 'utf8')).toContain('Used by [[transformer|the model]].');
    const logAfterFirst = await readFile(path.join(root, 'wiki/log.md'), 'utf8');
    expect(logAfterFirst).toMatch(/^## \[\d{4}-\d{2}-\d{2}\] lint \| --fix applied 4 repairs · run \S+$/m);

    const second = await runCli(['lint', '--fix', '--no-llm', '--json'], { cwd: root });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ findings: [], errors: 0, warnings: 0, questions: 0, changes: [] });
    expect(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).toBe(logAfterFirst);
  });

  it('exits 2 outside a workspace and on an unknown flag', async () => {
    const empty = await tempDir();
    const noWorkspace = await runCli(['lint'], { cwd: empty });
    expect(noWorkspace.code).toBe(2);
    expect(noWorkspace.stderr).toMatch(/no wiki workspace found/);
    const badRoot = await runCli(['--root', empty, 'lint', '--json'], { cwd: empty });
    expect(badRoot.code).toBe(2);
    expect(JSON.parse(badRoot.stdout).error).toMatchObject({ exitCode: 2, type: 'ConfigError' });
    const root = await initWorkspace();
    const badFlag = await runCli(['lint', '--frobnicate'], { cwd: root });
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/unknown option/);
  });

  it('--help documents the flags, exit codes and examples', async () => {
    const help = await runCli(['lint', '--help']);
    expect(help.code).toBe(0);
    for (const text of ['--fix', '--no-llm', '--strict', 'Exit codes', 'Examples:']) expect(help.stdout).toContain(text);
  });
});

describe('source coverage in wiki lint and wiki status', () => {
  /** raw/report.md has 20 text lines; its source page cites lines 1-4 (20%), raw/notes.md all 4 of its lines. */
  async function coverageWorkspace(): Promise<string> {
    const root = await initWorkspace();
    await writePage(root, 'raw/report.md', Array.from({ length: 20 }, (_, i) => `Finding ${i + 1}.`).join('\n') + '\n');
    await writePage(root, 'raw/notes.md', 'One.\n\nTwo.\nThree.\nFour.\n');
    const body = 'The first findings. <!-- from: raw/report.md#L1-4 -->\n\nThe notes. <!-- from: raw/notes.md#L1-5 -->';
    await writePage(
      root,
      'wiki/sources/report.md',
      `---\ntitle: Report\nsummary: A report.\ntype: source\nsources: [raw/report.md, raw/notes.md]\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\n${body}\n`,
    );
    expect((await runCli(['lint', '--fix', '--no-llm'], { cwd: root })).code).toBe(0);
    return root;
  }

  it('lint warns about a source below wiki.config.json coverage.warnBelow, in --json with the per-source shares', async () => {
    const root = await coverageWorkspace();
    const result = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const report = JSON.parse(result.stdout) as JsonReport & { coverage: Array<{ source: string; share: number }> };
    expect(report.findings.filter((f) => f.rule === 'low-coverage')).toEqual([
      expect.objectContaining({ severity: 'warning', path: 'raw/report.md', message: expect.stringMatching(/^only 20% of its lines \(4 of 20\)/) }),
    ]);
    expect(report.coverage).toEqual([
      { source: 'raw/report.md', lines: 20, covered: 4, share: 0.2 },
      { source: 'raw/notes.md', lines: 4, covered: 4, share: 1 },
    ]);
    const human = await runCli(['lint', '--no-llm'], { cwd: root });
    expect(human.stdout).toMatch(/low-coverage \(1 warning\)\n\s+raw\/report\.md\s+only 20% of its lines/);

    await writeFile(path.join(root, 'wiki.config.json'), JSON.stringify({ coverage: { warnBelow: 0.1 } }));
    const lowered = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as JsonReport;
    expect(lowered.findings.filter((f) => f.rule === 'low-coverage')).toEqual([]);
  });

  it('status reports the shares and lists the sources below the threshold', async () => {
    const root = await coverageWorkspace();
    const json = JSON.parse((await runCli(['status', '--json'], { cwd: root })).stdout) as { coverage: { threshold: number; low: string[]; sources: unknown[] } };
    expect(json.coverage).toMatchObject({ threshold: 0.5, low: ['raw/report.md'], unmeasured: [] });
    expect(json.coverage.sources).toHaveLength(2);
    const human = await runCli(['status'], { cwd: root });
    expect(human.stdout).toMatch(/Coverage: 60% of source lines cited by line range on average over 2 source\(s\)/);
    expect(human.stdout).toMatch(/1 below 50%: raw\/report\.md 20%/);
  });
});
