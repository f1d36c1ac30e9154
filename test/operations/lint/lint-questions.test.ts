import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEPT_FILE, loadKept } from '../../../src/operations/lint/lint-batch.js';
import { markReviewed, parseAnswers, planQuestions, questionsRequest, QUESTION_BATCH, rememberAnswers } from '../../../src/operations/lint/lint-questions.js';
import type { Finding } from '../../../src/wiki/validate/finding.js';
import { tempDir } from '../../helpers/cli.js';

const PAGE = 'wiki/concepts/compare.md';

async function workspace(): Promise<string> {
  const root = await tempDir();
  await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
  await mkdir(path.join(root, 'raw'), { recursive: true });
  await mkdir(path.join(root, '.wiki'), { recursive: true });
  await writeFile(path.join(root, PAGE), '---\ntitle: Compare\n---\n\nThe loop never ends. <!-- from: raw/src.md#L2-3 -->\n');
  await writeFile(path.join(root, 'raw/src.md'), 'Intro.\nThe loop runs until told to stop.\nIt stops only on a signal.\nUnrelated.\n');
  return root;
}

const question = (n = 0): Finding => ({
  rule: 'ungrounded',
  severity: 'question',
  path: PAGE,
  line: 5 + n,
  message: `"The loop never ends${n ? ` ${n}` : ''}.": it denies "end", which its cited lines do not deny (raw/src.md#L2-3 say: "2│The loop runs until told to stop. 3│It stops only on a signal.")`,
});

describe('the questions a lint run puts to a model', () => {
  it('quotes the sentence and its exact cited lines, no slack, numbered as read_file numbers them', async () => {
    const root = await workspace();
    const plan = await planQuestions(root, [question()], await loadKept(root), 30);
    const text = await questionsRequest(root, plan.batches[0] ?? [], { fix: false, first: true, total: 1 });
    expect(text).toContain('Q1 wiki/concepts/compare.md:5 — "The loop never ends." (the check noticed: it denies "end", which its cited lines do not deny)');
    expect(text).toContain('raw/src.md#L2-3:\n2│The loop runs until told to stop.\n3│It stops only on a signal.');
    expect(text).not.toContain('Intro.');
    expect(text).not.toContain('Unrelated.');
  });

  it('a long cited range is shown in whole lines, and the lines left out are named with the read_file call that shows them', async () => {
    const root = await workspace();
    const long = Array.from({ length: 140 }, (_, i) => `Line ${i + 1} of a long rejected-alternatives section, with enough words to fill it.`);
    await writeFile(path.join(root, 'raw/long.md'), `${long.join('\n')}\n`);
    const finding: Finding = { ...question(), message: '"The loop never ends.": it denies "end", which its cited lines do not deny (raw/long.md#L3-140 say: "3│Line 3")' };
    const plan = await planQuestions(root, [finding], await loadKept(root), 30);
    const text = await questionsRequest(root, plan.batches[0] ?? [], { fix: false, first: true, total: 1 });
    const shown = [...text.matchAll(/^(\d+)│/gm)].map((m) => Number(m[1]));
    expect(shown[0]).toBe(3);
    const lastShown = shown.at(-1) ?? 0;
    expect(lastShown).toBeLessThan(140);
    expect(text).not.toMatch(/…$/m);
    const pointer = new RegExp(`\\[lines ${lastShown + 1}-140 not shown: read_file raw/long\\.md offset (\\d+) limit (\\d+) \\(lines ${lastShown + 1}–(\\d+)\\)\\]`).exec(text);
    expect(pointer, text.slice(-300)).not.toBeNull();
    const source = long.join('\n');
    expect(source.slice(Number(pointer?.[1])).startsWith(`Line ${lastShown + 1} of a long`)).toBe(true);
  });

  it('batches at most QUESTION_BATCH a message and lint.fixBatch a run', async () => {
    const root = await workspace();
    const many = Array.from({ length: 25 }, (_, i) => question(i + 1));
    const plan = await planQuestions(root, many, await loadKept(root), 22);
    expect(plan.batches.map((b) => b.length)).toEqual([QUESTION_BATCH, QUESTION_BATCH, 2]);
    expect(plan.remaining).toBe(3);
    expect(new Set(plan.batches.flat().map((q) => q.number)).size).toBe(22);
  });

  it('reads yes/no answers, ignoring lines that are not one and answers to questions never asked', async () => {
    const answers = parseAnswers('Here:\n- ANSWER Q1 yes :: said in other words\nANSWER Q2 No :: the lines say it stops\nANSWER Q3 maybe :: unsure\nANSWER Q9 yes');
    expect(answers).toEqual([
      { number: 1, supported: true, reason: 'said in other words' },
      { number: 2, supported: false, reason: 'the lines say it stops' },
    ]);
    const root = await workspace();
    const plan = await planQuestions(root, [question()], await loadKept(root), 30);
    const kept = await loadKept(root);
    expect(await rememberAnswers(root, kept, plan.batches.flat(), parseAnswers('ANSWER Q7 yes :: a question never asked'))).toEqual({ yes: 0, no: 0 });
  });

  it('remembers a "no" as a warning and a "yes" as kept, until the cited lines change', async () => {
    const root = await workspace();
    const plan = await planQuestions(root, [question()], await loadKept(root), 30);
    await rememberAnswers(root, await loadKept(root), plan.batches.flat(), parseAnswers('ANSWER Q1 no :: the lines say it stops'));
    const [refuted] = await markReviewed(root, [question()], await loadKept(root));
    expect(refuted).toMatchObject({ severity: 'warning', message: expect.stringContaining('a model review answered that its cited lines do not support it: the lines say it stops') });
    expect((await planQuestions(root, [question()], await loadKept(root), 30)).answeredEarlier).toBe(1);
    await writeFile(path.join(root, 'raw/src.md'), 'Intro.\nThe loop runs until told to stop, or forever.\nIt stops only on a signal.\nUnrelated.\n');
    expect(await markReviewed(root, [question()], await loadKept(root))).toEqual([question()]);
  });

  it('ignores a crafted kept file’s entries that are not well formed', async () => {
    const root = await workspace();
    const plan = await planQuestions(root, [question()], await loadKept(root), 30);
    const key = plan.batches[0]?.[0]?.key ?? '';
    await writeFile(path.join(root, KEPT_FILE), JSON.stringify({ version: 2, kept: { [key]: { path: PAGE, reason: { toString: 'x' } } }, refuted: { [key]: { path: PAGE, reason: 'two\nlines' } } }));
    expect(await markReviewed(root, [question()], await loadKept(root))).toEqual([question()]);
  });
});
