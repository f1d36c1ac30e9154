import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorkspace, REPO_ROOT, runCli } from '../helpers/cli.js';
import type { RecordedRequest, ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers } from '../helpers/use-fake-llm.js';

const PLAYED = path.join(REPO_ROOT, 'test/fixtures/played-wiki');
const startServer = fakeServers();

interface Finding {
  rule: string;
  severity: string;
  path: string;
  line: number | null;
  message: string;
  kept?: string;
}
interface LintJson {
  findings: Finding[];
  errors: number;
  warnings: number;
  questions: number;
  batch?: string;
}

/**
 * The played wiki (19 model-written pages, three long sources), its facts built, with the
 * grounding rules set to `question` in schema.md: a dozen or more questions, whatever the
 * checks are sure of.
 */
async function wikiWithQuestions(): Promise<string> {
  const root = await initWorkspace();
  await cp(path.join(PLAYED, 'wiki'), path.join(root, 'wiki'), { recursive: true, force: true });
  await cp(path.join(PLAYED, 'raw'), path.join(root, 'raw'), { recursive: true });
  const schema = await readFile(path.join(PLAYED, 'schema.md'), 'utf8');
  await writeFile(path.join(root, 'schema.md'), schema.replace(/\n {2}types:\n/, '\n  lint:\n    miscited: question\n    ungrounded: question\n    unsupported-number: question\n  types:\n'));
  expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
  return root;
}

/** `Q<n> <path>:<line>` of each question a request asks. */
function questionsIn(request: RecordedRequest): Array<{ number: number; place: string }> {
  return [...(request.lastUserText ?? '').matchAll(/^Q(\d+) (\S+) — "/gm)].map((m) => ({ number: Number(m[1]), place: m[2] ?? '' }));
}

/** A model that answers every question it is asked: "no" to Q1, "yes" to the rest. */
function answering(): (request: RecordedRequest) => ScriptStep {
  return (request) => ({
    text: ['Reviewed.', ...questionsIn(request).map((q) => (q.number === 1 ? 'ANSWER Q1 no :: the lines say the opposite' : `ANSWER Q${q.number} yes :: the cited lines say this in other words`))].join('\n'),
  });
}

const bytes = (body: unknown): number => Buffer.byteLength(JSON.stringify(body));

describe.each(['anthropic', 'openai'] as const)('wiki lint with a model puts the questions to it (%s)', (api) => {
  it('asks them in bounded batches with the exact cited lines; yes is kept, no is a warning, and both are remembered', async () => {
    const root = await wikiWithQuestions();
    const plain = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson;
    const open = plain.findings.filter((f) => f.severity === 'question');
    expect(plain.questions).toBe(open.length);
    expect(open.length).toBeGreaterThan(10);
    // Questions are never flagged: not by --strict, not by grounding's `flagged`.
    expect(plain.findings.filter((f) => f.severity === 'warning' && ['miscited', 'ungrounded', 'unsupported-number'].includes(f.rule))).toEqual([]);

    const server = await startServer(answering());
    const result = await runCli(['lint', '--json'], { cwd: root, env: server.env(api) });
    const asked = server.requests.flatMap(questionsIn);
    const expected = Math.min(open.length, 30);
    expect(asked).toHaveLength(expected);
    expect(new Set(asked.map((q) => q.number)).size).toBe(expected);
    // At most ten a message: the first request holds the review and the first batch, each later one the next batch.
    expect(server.requests).toHaveLength(Math.ceil(expected / 10));
    for (const request of server.requests) expect(questionsIn(request).length).toBeLessThanOrEqual(10);
    const first = server.requests[0];
    expect(bytes(first?.body)).toBeLessThanOrEqual(60 * 1024);
    expect(first?.lastUserText).toMatch(/`ANSWER Q<n> yes :: <short reason>` or `ANSWER Q<n> no :: <short reason>`/);
    // Each question quotes its cited lines exactly as the source has them, numbered.
    const q1 = /^Q\d+ (\S+) — "[^\n]*\n(raw\/[^#\s]+)#L(\d+)(?:-\d+)?:\n(\d+)│(.*)$/m.exec(first?.lastUserText ?? '');
    expect(q1).not.toBeNull();
    const source = (await readFile(path.join(root, q1?.[2] ?? ''), 'utf8')).split('\n');
    expect(q1?.[4]).toBe(q1?.[3]);
    expect(q1?.[5]).toBe(source[Number(q1?.[3]) - 1]);
    // A read-only review is shown the findings as context: it "handles" none and leaves none for a later run.
    expect(first?.lastUserText).not.toMatch(/This run handles|wait for a later run/);
    expect(server.requests[1]?.lastUserText).toMatch(/^More questions \(\d+\)/);

    const report = JSON.parse(result.stdout) as LintJson;
    const refuted = report.findings.filter((f) => f.message.includes('a model review answered that its cited lines do not support it: the lines say the opposite'));
    expect(refuted).toHaveLength(1);
    expect(refuted[0]).toMatchObject({ severity: 'warning' });
    expect(`${refuted[0]?.path}:${refuted[0]?.line}`).toBe(asked.find((q) => q.number === 1)?.place);
    expect(report.findings.filter((f) => f.kept === 'the cited lines say this in other words')).toHaveLength(expected - 1);
    // As `warnings` does, `questions` counts kept ones too (each carries `kept`); the "no" is a warning now.
    expect(report.questions).toBe(open.length - 1);
    expect(report.findings.filter((f) => f.severity === 'question' && f.kept === undefined)).toHaveLength(open.length - expected);
    expect(report.batch).toMatch(new RegExp(`asked ${expected} question\\(s\\): ${expected - 1} yes \\(kept\\), 1 no \\(now warnings\\)`));
    expect(report.batch).not.toMatch(/left for the next run/);

    // Remembered: the deterministic lint says the same, --strict fails on the one "no", and a second review asks none of them again.
    const after = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson;
    expect(after.findings.filter((f) => f.message.includes('a model review answered'))).toHaveLength(1);
    expect(after.findings.filter((f) => f.kept !== undefined)).toHaveLength(expected - 1);
    expect((await runCli(['lint', '--no-llm', '--strict'], { cwd: root })).code).toBe(1);
    // `flagged` counts grounding warnings: the "no" among them, no question.
    const flagged = (after as LintJson & { grounding: Array<{ path: string; flagged: number }> }).grounding;
    expect(flagged.find((p) => p.path === refuted[0]?.path)?.flagged).toBe(after.findings.filter((f) => f.path === refuted[0]?.path && f.severity === 'warning' && ['miscited', 'ungrounded', 'unsupported-number'].includes(f.rule)).length);
    expect(flagged.reduce((sum, p) => sum + p.flagged, 0)).toBe(1);
    const second = await startServer(answering());
    await runCli(['lint', '--json'], { cwd: root, env: second.env(api) });
    const askedAgain = second.requests.flatMap(questionsIn).map((q) => q.place);
    for (const q of asked) expect(askedAgain).not.toContain(q.place);
  });
});

describe('questions: bounds, --fix, and when an answer stops holding', () => {
  it('counts each batch against --max-turns: with one turn only the first batch is asked, the rest wait', async () => {
    const root = await wikiWithQuestions();
    const server = await startServer(answering());
    const result = await runCli(['lint', '--json'], { cwd: root, env: { ...server.env('anthropic'), WIKI_MAX_TURNS: '1' } });
    expect(server.requests).toHaveLength(1);
    const report = JSON.parse(result.stdout) as LintJson;
    expect(report.batch).toMatch(/asked 10 question\(s\): 9 yes \(kept\), 1 no \(now warnings\); \d+ question\(s\) wait for a later run/);
  });

  it('under --fix a "no" is to be corrected with the tools', async () => {
    const root = await wikiWithQuestions();
    const server = await startServer(answering());
    const result = await runCli(['lint', '--fix', '--json'], { cwd: root, env: server.env('openai') });
    expect(server.requests[0]?.lastUserText).toContain('For a "no", also correct the sentence, or its citation, with the tools.');
    // The review, its repairs and the first questions together stay within the first request's 60 KB.
    expect(bytes(server.requests[0]?.body)).toBeLessThanOrEqual(60 * 1024);
    const report = JSON.parse(result.stdout) as LintJson;
    expect(report.findings.filter((f) => f.message.includes('a model review answered') && f.severity === 'warning')).toHaveLength(1);
  });

  it('asks again once the cited lines of an answered question change', async () => {
    const root = await wikiWithQuestions();
    const server = await startServer(answering());
    await runCli(['lint', '--json'], { cwd: root, env: server.env('anthropic') });
    // A question other than Q1 (answered yes) that cites lines.
    const q2 = /^Q(?:[2-9]|\d\d) (\S+) — "[^\n]*\n(raw\/[^#\s]+)#L(\d+)/m.exec(server.requests[0]?.lastUserText ?? '');
    expect(q2).not.toBeNull();
    const [, place = '', file = '', line = ''] = q2 ?? [];
    const keptAt = (report: LintJson): Finding[] => report.findings.filter((f) => `${f.path}:${f.line}` === place && f.kept !== undefined);
    expect(keptAt(JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson).length).toBeGreaterThan(0);
    const lines = (await readFile(path.join(root, file), 'utf8')).split('\n');
    lines[Number(line) - 1] = `${lines[Number(line) - 1]} (a word the owner added)`;
    await writeFile(path.join(root, file), lines.join('\n'));
    expect(keptAt(JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson)).toEqual([]);
  });
});

describe('one account: wiki status and wiki lint', () => {
  it('give the same numbers in the same words after a review answered questions', async () => {
    const root = await wikiWithQuestions();
    const server = await startServer(answering());
    await runCli(['lint'], { cwd: root, env: { ...server.env('anthropic'), WIKI_MAX_TURNS: '1' } });
    const lint = await runCli(['lint', '--no-llm'], { cwd: root });
    const summary = /^(\d+ errors?, \d+ warnings?.*)$/m.exec(lint.stdout)?.[1];
    expect(summary).toMatch(/\(and 9 kept after review\); \d+ questions? for a model to answer/);
    const status = await runCli(['status'], { cwd: root });
    expect(status.stdout).toContain(`Lint:     ${summary} (\`wiki lint\` lists them)`);
    expect(status.stdout).not.toMatch(/flagged by/);
    const json = JSON.parse((await runCli(['status', '--json'], { cwd: root })).stdout) as { lint: { warnings: number; questions: number; kept: number } };
    const report = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson;
    expect(json.lint.kept).toBe(report.findings.filter((f) => f.kept !== undefined).length);
    expect(json.lint.questions).toBe(report.findings.filter((f) => f.severity === 'question' && f.kept === undefined).length);
  });
});

describe('wiki lint prints questions as a count', () => {
  it('with one line saying how they get answered; --rule lists them; --strict does not count them', async () => {
    const root = await wikiWithQuestions();
    const schema = path.join(root, 'schema.md');
    await writeFile(schema, (await readFile(schema, 'utf8')).replace('\n  lint:\n', '\n  lint:\n    orphan: off\n'));
    await runCli(['lint', '--fix', '--no-llm'], { cwd: root });
    const report = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson;
    expect(report.warnings).toBe(0);
    expect(report.errors).toBe(0);
    const human = await runCli(['lint', '--no-llm', '--strict'], { cwd: root });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^${report.questions} questions \\((?:[a-z-]+(?:, )?)+\\): sentences the checks noticed a mismatch in but cannot judge\\. \`wiki lint\` with a model, or \`wiki lint --fix\`, asks it whether their cited lines support them`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^No open problems; ${report.questions} questions for a model to answer\\.$`, 'm'));
    // Not listed one by one by default; `--rule` lists them.
    const first = report.findings.find((f) => f.severity === 'question');
    expect(human.stdout).not.toContain(`${first?.path}:${first?.line}  `);
    const listed = await runCli(['lint', '--no-llm', '--rule', first?.rule ?? ''], { cwd: root });
    expect(listed.stdout).toContain(`${first?.path}:${first?.line}  `);
    expect(listed.stdout).toMatch(new RegExp(`^${first?.rule} \\(\\d+ questions?\\)`, 'm'));
  });
});

describe('questions about a page the model may not see', () => {
  it('are never put to it', async () => {
    const root = await wikiWithQuestions();
    const report = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as LintJson;
    const hidden = report.findings.find((f) => f.severity === 'question')?.path ?? '';
    expect(hidden).toMatch(/^wiki\//);
    const file = path.join(root, hidden);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^---\n/, '---\nusage_mode: never\n'));
    const server = await startServer(answering());
    await runCli(['lint', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(server.requests.length).toBeGreaterThan(0);
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain(hidden);
  });
});
