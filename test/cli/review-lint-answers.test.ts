import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorkspace, REPO_ROOT, runCli } from '../helpers/cli.js';
import type { RecordedRequest, ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers } from '../helpers/use-fake-llm.js';
import { outsideState } from './review-fixtures.js';

/**
 * `wiki lint --fix --review` with the model answering questions (issue 40, item 5): the
 * answers judge the sentences as they stand on disk, so they are remembered as in a direct
 * run — in .wiki/ only — and a later run does not pay to ask them again; wiki/ is untouched.
 */
const PLAYED = path.join(REPO_ROOT, 'test/fixtures/played-wiki');
const startServer = fakeServers();

async function wikiWithQuestions(): Promise<string> {
  const root = await initWorkspace();
  await cp(path.join(PLAYED, 'wiki'), path.join(root, 'wiki'), { recursive: true, force: true });
  await cp(path.join(PLAYED, 'raw'), path.join(root, 'raw'), { recursive: true });
  const schema = await readFile(path.join(PLAYED, 'schema.md'), 'utf8');
  await writeFile(path.join(root, 'schema.md'), schema.replace(/\n {2}types:\n/, '\n  lint:\n    miscited: question\n    ungrounded: question\n    unsupported-number: question\n  types:\n'));
  expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
  return root;
}

const questionsIn = (request: RecordedRequest): Array<{ number: number; place: string }> =>
  [...(request.lastUserText ?? '').matchAll(/^Q(\d+) (\S+) — "/gm)].map((m) => ({ number: Number(m[1]), place: m[2] ?? '' }));

/** Answers "yes" to every question, and rewrites nothing. */
const answering = (): ((request: RecordedRequest) => ScriptStep) => (request) => ({
  text: ['Reviewed.', ...questionsIn(request).map((q) => `ANSWER Q${q.number} yes :: the cited lines say this in other words`)].join('\n'),
});

describe('lint --fix --review with questions answered', () => {
  it('remembers the answers (in .wiki/ only), so a later run under review does not ask them again', async () => {
    const root = await wikiWithQuestions();
    const before = await outsideState(root);
    const first = await startServer(answering());
    const result = await runCli(['lint', '--fix', '--review', '--json'], { cwd: root, env: first.env('anthropic') });
    expect(result.stderr).not.toMatch(/Error/);
    const asked = first.requests.flatMap(questionsIn).map((q) => q.place);
    expect(asked.length).toBeGreaterThan(0);
    expect(await outsideState(root)).toEqual(before);

    const second = await startServer(answering());
    await runCli(['lint', '--fix', '--review', '--json'], { cwd: root, env: second.env('anthropic') });
    const askedAgain = second.requests.flatMap(questionsIn).map((q) => q.place);
    for (const place of asked) expect(askedAgain).not.toContain(place);
    expect(await outsideState(root)).toEqual(before);
  });
});
