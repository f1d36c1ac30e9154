import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

/** The example workspace with an orphan page added, so `orphan` has something to report. */
async function exampleWithOrphan(): Promise<string> {
  const parent = await tempDir();
  expect((await runCli(['init', '--example', 'w'], { cwd: parent })).code).toBe(0);
  const root = path.join(parent, 'w');
  await writeFile(path.join(root, 'wiki/concepts/lonely-note.md'), '---\ntitle: Lonely note\nsummary: A page no other page links to.\nsources: [raw/zettelkasten-notes.md]\n---\n\nA note about cards.\n');
  expect((await runCli(['lint', '--fix', '--no-llm'], { cwd: root })).code).toBe(0);
  return root;
}

async function setLint(root: string, lines: string): Promise<void> {
  const file = path.join(root, 'schema.md');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace(/\n {2}types:\n/, `\n  lint:\n${lines.split('\n').map((l) => `    ${l}`).join('\n')}\n  types:\n`));
}

interface LintJson {
  findings: Array<{ rule: string; severity: string; path: string }>;
  errors: number;
}

describe("wiki lint follows schema.md's lint settings", () => {
  it('a rule turned off reports nothing; a rule raised to error fails the run', async () => {
    const root = await exampleWithOrphan();
    const before = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson;
    expect(before.findings.filter((f) => f.rule === 'orphan')).toEqual([expect.objectContaining({ path: 'wiki/concepts/lonely-note.md', severity: 'warning' })]);

    await setLint(root, 'orphan: off');
    const off = await runCli(['lint', '--no-llm', '--strict', '--json'], { cwd: root });
    expect((JSON.parse(off.stdout) as LintJson).findings.filter((f) => f.rule === 'orphan')).toEqual([]);

    const file = path.join(root, 'schema.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('\n    orphan: off', '\n    orphan: error'));
    const raised = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    expect(raised.code).toBe(1);
    const report = JSON.parse(raised.stdout) as LintJson;
    expect(report.findings.filter((f) => f.rule === 'orphan')).toEqual([expect.objectContaining({ severity: 'error' })]);
    expect(report.errors).toBeGreaterThanOrEqual(1);
  });

  it('an unknown rule is an error naming it and schema.md (exit 2), as is turning off a rule that guards trust', async () => {
    const root = await exampleWithOrphan();
    await setLint(root, 'orphans: off');
    const unknown = await runCli(['lint', '--no-llm'], { cwd: root });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/schema\.md: .*contract\.lint\.orphans: no lint rule is called "orphans"/);

    const file = path.join(root, 'schema.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('\n    orphans: off', '\n    human-edit: warning'));
    const lowered = await runCli(['status'], { cwd: root });
    expect(lowered.code).toBe(2);
    expect(lowered.stderr).toMatch(/lint rule "human-edit" guards trust .*not lowered to warning/);
  });
});
