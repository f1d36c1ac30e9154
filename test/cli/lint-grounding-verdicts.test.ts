import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';

/**
 * Issue 36 through the built CLI: a grounding finding is a warning where the check is sure (a
 * tool name its sources never mention) and a question where it is not (a denial its cited
 * lines word another way); status counts the warnings only, as flagged.
 */
describe('grounding verdicts in `wiki lint --json`', () => {
  it('a swapped tool name is a warning, a reworded denial a question, a faithful sentence nothing; status counts the warning as flagged', async () => {
    const root = await initWorkspace();
    await mkdir(path.join(root, 'raw'), { recursive: true });
    await writeFile(
      path.join(root, 'raw/typing.md'),
      [
        '# Type hints',
        '',
        'Type checkers such as mypy read the annotations of a module and report errors before the program runs.',
        '',
        'Checkers may warn when a function returns a value of another type than its annotation says.',
        '',
      ].join('\n'),
    );
    await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
    await writeFile(
      path.join(root, 'wiki/concepts/type-hints.md'),
      [
        '---',
        'title: Type hints',
        'summary: Annotations that checkers read.',
        'type: concept',
        'sources: [raw/typing.md]',
        'created: 2026-01-01',
        'updated: 2026-01-01',
        '---',
        '',
        'Type checkers such as mypy read the annotations of a module and report errors before the program runs. <!-- from: raw/typing.md#L3 -->',
        '',
        'Type checkers such as javac read the annotations of a module and report errors before the program runs. <!-- from: raw/typing.md#L3 -->',
        '',
        'Checkers never warn about returned values. <!-- from: raw/typing.md#L5 -->',
        '',
      ].join('\n'),
    );
    expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string; severity: string; path: string; line: number; message: string }> };
    const grounding = lint.findings.filter((f) => f.path === 'wiki/concepts/type-hints.md' && ['ungrounded', 'miscited', 'unsupported-number'].includes(f.rule));
    expect(grounding.map((f) => [f.line, f.rule, f.severity])).toEqual([
      [12, 'miscited', 'warning'],
      [14, 'miscited', 'question'],
    ]);
    expect(grounding[0]?.message).toContain('it names "javac", which its sources never mention');
    expect(grounding[1]?.message).toContain('it denies "warn"');
    const status = JSON.parse((await runCli(['status', '--json'], { cwd: root })).stdout) as { grounding: { flagged: number } };
    expect(status.grounding.flagged).toBe(1);
  });
});
