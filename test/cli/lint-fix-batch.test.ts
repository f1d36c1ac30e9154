import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorkspace, REPO_ROOT, runCli, tempDir } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers } from '../helpers/use-fake-llm.js';

const PLAYED = path.join(REPO_ROOT, 'test/fixtures/played-wiki');
const startServer = fakeServers();

/** The played wiki (19 model-written pages, three long sources) in a fresh workspace, its facts built. */
async function playedWorkspace(): Promise<string> {
  const root = await initWorkspace();
  await cp(path.join(PLAYED, 'wiki'), path.join(root, 'wiki'), { recursive: true, force: true });
  await cp(path.join(PLAYED, 'raw'), path.join(root, 'raw'), { recursive: true });
  await cp(path.join(PLAYED, 'schema.md'), path.join(root, 'schema.md'));
  expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
  return root;
}

/** A model that reads one page and one source, then ends, keeping the first flagged sentence it was handed. */
function reviewScript(keep: (firstRequest: string) => string): (request: { index: number; lastUserText: string | undefined }) => ScriptStep {
  let first = '';
  return (request) => {
    if (request.index === 0) first = request.lastUserText ?? '';
    if (request.index === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: 'wiki/entities/go-checksum-database.md' } }] };
    if (request.index === 1) return { toolCalls: [{ name: 'read_file', arguments: { path: 'raw/go-checksum-database.md' } }] };
    return { text: `Checked the flagged sentences.\n${keep(first)}` };
  };
}

const bytes = (body: unknown): number => Buffer.byteLength(JSON.stringify(body));

describe('wiki lint --fix on a real model-written wiki', () => {
  it('hands the model a bounded batch: the first request is at most 60 KB, the whole run well under 150k input tokens, and says what is left', async () => {
    const root = await playedWorkspace();
    const server = await startServer(reviewScript(() => ''));
    const result = await runCli(['lint', '--fix', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    const first = server.requests[0];
    expect(first).toBeDefined();
    expect(bytes(first?.body)).toBeLessThanOrEqual(60 * 1024);
    const handed = (first?.lastUserText ?? '').split('\n').filter((line) => /^- \[(error|warning)\] /.test(line));
    expect(handed.length).toBeGreaterThan(0);
    expect(handed.length).toBeLessThanOrEqual(30);
    // Two flagged sentences on one line: the model is told how to keep one of them.
    expect(first?.lastUserText).toContain('KEEP <path>:<line> "…" :: <why>');
    // No stale page among them: no instruction for one.
    expect(first?.lastUserText).not.toContain('stale-page');
    // Each cited finding says where its lines are, as read_file arguments that show just them.
    const hints = [...(first?.lastUserText ?? '').matchAll(/— read_file (raw\/\S+) offset (\d+) limit (\d+) \(lines (\d+)–(\d+)\)/g)];
    expect(hints.length).toBeGreaterThan(0);
    for (const [, file = '', offset, limit, from, to] of hints) {
      const text = await readFile(path.join(root, file), 'utf8');
      const shown = text.slice(Number(offset), Number(offset) + Number(limit));
      expect(shown.split('\n')[0]).toBe(text.split('\n')[Number(from) - 1]);
      expect(shown.endsWith('\n') || Number(offset) + Number(limit) === text.length).toBe(true);
      expect(Number(to)).toBeGreaterThanOrEqual(Number(from));
    }
    // Input over the whole run, estimated at four characters a token.
    const input = server.requests.reduce((sum, request) => sum + bytes(request.body), 0) / 4;
    expect(input).toBeLessThan(150_000);
    const report = JSON.parse(result.stdout) as { batch?: string; review?: { tokens: number } };
    expect(report.batch).toMatch(/handed \d+ finding\(s\), errors first/);
    expect(report.review?.tokens).toBeGreaterThan(0);
  });

  it('does not send a sentence the model kept again until its page changes, and the human report prints tokens and cost', async () => {
    const root = await playedWorkspace();
    let kept = '';
    const first = await startServer(
      reviewScript((request) => {
        // A place (page:line) that holds one flagged sentence only, so "not sent again" is about that one sentence.
        const places = request
          .split('\n')
          .filter((l) => /^- \[warning\] (miscited|ungrounded|unsupported-number) /.test(l))
          .map((l) => /^- \[warning\] \S+ (\S+) —/.exec(l)?.[1] ?? '');
        const place = places.find((p) => places.indexOf(p) === places.lastIndexOf(p)) ?? '';
        kept = place;
        return `KEEP ${place} :: a fair paraphrase of the cited lines`;
      }),
    );
    const run = await runCli(['lint', '--fix'], { cwd: root, env: first.env('anthropic') });
    expect(run.code).toBe(0);
    expect(kept).toMatch(/^wiki\/.+\.md:\d+$/);
    expect(run.stdout).toMatch(/model review/);
    expect(run.stdout).toMatch(/Tokens: .*input/);
    expect(run.stdout).toMatch(/Cost: /);
    expect(run.stdout).toMatch(/kept 1 sentence/);
    expect(JSON.parse(await readFile(path.join(root, '.wiki/lint-kept.json'), 'utf8')).kept).toBeTruthy();

    const second = await startServer(reviewScript(() => ''));
    const again = await runCli(['lint', '--fix', '--json'], { cwd: root, env: second.env('anthropic') });
    expect(again.code).toBe(0);
    expect(second.requests[0]?.lastUserText ?? '').not.toContain(` ${kept} —`);
    // The model is told why fewer findings come than the count says.
    expect(second.requests[0]?.lastUserText ?? '').toContain('1 was kept earlier with a reason and is not sent again');
    expect((JSON.parse(again.stdout) as { batch: string }).batch).toMatch(/1 kept earlier, not sent/);

    // The report counts the kept sentence apart instead of listing it again as open; --json and --all carry the reason.
    const report = await runCli(['lint', '--no-llm'], { cwd: root });
    expect(report.stdout).toMatch(/1 kept after review, not listed \(wiki lint --rule \S+ shows them with the reason\)/);
    // A kept finding is no open warning: the summary counts it apart, and --strict does not fail on it.
    expect(report.stdout).toMatch(/\d+ errors?, \d+ warnings? \(and 1 kept after review\)|No open problems \(1 kept after review/);
    const summary = /(\d+) errors?, (\d+) warnings? \(and 1 kept after review\)/.exec(report.stdout);
    const counted = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { warnings: number; findings: Array<{ severity: string; kept?: string }> };
    const open = counted.findings.filter((f) => f.severity === 'warning' && f.kept === undefined).length;
    expect(Number(summary?.[2] ?? 0)).toBe(open);
    expect(counted.warnings).toBe(open + 1);
    expect(report.stdout).not.toContain(`${kept}  `);
    const all = await runCli(['lint', '--no-llm', '--all'], { cwd: root });
    expect(all.stdout).toContain(`${kept}  `);
    expect(all.stdout).toContain('[kept after review: a fair paraphrase of the cited lines]');
    const json = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ path: string; line: number | null; kept?: string }> };
    expect(json.findings.filter((f) => f.kept === 'a fair paraphrase of the cited lines').map((f) => `${f.path}:${f.line}`)).toEqual([kept]);
  });
});

describe('wiki lint --fix on a stale page', () => {
  it('the model updates the page from its changed source and the tool clears the stale mark (logged)', async () => {
    const parent = await tempDir();
    expect((await runCli(['init', '--example', 'w'], { cwd: parent })).code).toBe(0);
    const root = path.join(parent, 'w');
    const rel = 'wiki/entities/niklas-luhmann.md';
    const stale = (await readFile(path.join(root, rel), 'utf8')).replace('updated: ', 'stale_since: 2026-11-20\nupdated: ');
    await writeFile(path.join(root, rel), stale);
    const rewritten = stale.replace('some seventy books', 'some seventy books and several hundred articles');
    const server = await startServer((request) => {
      if (request.index === 0) {
        expect(request.lastUserText).toMatch(/stale-page wiki\/entities\/niklas-luhmann\.md — stale since 2026-11-20: raw\/zettelkasten-notes\.md changed/);
        expect(request.lastUserText).toContain('For a stale-page finding, read the lines the page cites');
        return { toolCalls: [{ name: 'read_file', arguments: { path: 'raw/zettelkasten-notes.md' } }] };
      }
      if (request.index === 1) return { toolCalls: [{ name: 'write_file', arguments: { path: rel, content: rewritten } }] };
      return { text: 'Updated the stale page from its source.' };
    });
    const result = await runCli(['lint', '--fix', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    const after = await readFile(path.join(root, rel), 'utf8');
    expect(after).toContain('several hundred articles');
    expect(after).not.toContain('stale_since');
    const report = JSON.parse(result.stdout) as { findings: Array<{ rule: string }> };
    expect(report.findings.filter((f) => f.rule === 'stale-page')).toEqual([]);
    expect(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).toMatch(/stale mark cleared: wiki\/entities\/niklas-luhmann\.md/);
  });
});

describe('wiki lint --fix: a repair round for what its own fixes left', () => {
  const rel = 'wiki/entities/niklas-luhmann.md';

  async function exampleWithFacts(): Promise<string> {
    const parent = await tempDir();
    expect((await runCli(['init', '--example', 'w'], { cwd: parent })).code).toBe(0);
    const root = path.join(parent, 'w');
    expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
    return root;
  }

  it('hands the new warning its write introduced back in the same conversation, once, and remembers its KEEP', async () => {
    const root = await exampleWithFacts();
    const page = await readFile(path.join(root, rel), 'utf8');
    // A sentence whose number its cited lines do not hold: a new unsupported-number warning on the page it changed.
    const rewritten = page.replace('\nSee [[zettelkasten]]', '\nLuhmann kept roughly 90,000 handwritten cards in 17 wooden drawers. <!-- from: raw/zettelkasten-notes.md#L13-17 -->\n\nSee [[zettelkasten]]');
    expect(rewritten).not.toBe(page);
    let repairMessage = '';
    const server = await startServer((request) => {
      if (request.index === 0) return { toolCalls: [{ name: 'write_file', arguments: { path: rel, content: rewritten } }] };
      if (request.index === 1) return { text: 'Rewrote the box section.' };
      repairMessage = request.lastUserText ?? '';
      const place = /unsupported-number (wiki\/entities\/niklas-luhmann\.md:\d+) —/.exec(repairMessage)?.[1] ?? 'none';
      return { text: `KEEP ${place} :: the drawers are counted in the photographs the notes describe` };
    });
    const result = await runCli(['lint', '--fix', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(repairMessage).toMatch(/^Your changes left 1 new finding\(s\) on the pages you changed \(repair round 1 of at most 2\)/);
    expect(repairMessage).toMatch(/^- \[warning\] unsupported-number wiki\/entities\/niklas-luhmann\.md:\d+ — ".*in 17 wooden drawers\.": 17 appears nowhere in its cited lines \(raw\/zettelkasten-notes\.md#L13-17 say: "13│Luhmann kept/m);
    // The same conversation: the first request's findings and the write are still in it.
    expect(JSON.stringify(server.requests[2]?.body)).toContain('Rewrote the box section.');
    const report = JSON.parse(result.stdout) as { batch: string; findings: Array<{ rule: string; path: string; kept?: string }> };
    expect(report.batch).toMatch(/handed back 1 new finding\(s\) its own changes left, in 1 repair round\(s\)/);
    expect(report.batch).toMatch(/kept 1 sentence/);
    expect(report.findings.filter((f) => f.rule === 'unsupported-number')).toEqual([expect.objectContaining({ path: rel, kept: 'the drawers are counted in the photographs the notes describe' })]);
  });

  it('counts the round against the run’s turns: with none left to write and answer, none is sent', async () => {
    const root = await exampleWithFacts();
    const page = await readFile(path.join(root, rel), 'utf8');
    const rewritten = page.replace('\nSee [[zettelkasten]]', '\nLuhmann kept roughly 90,000 handwritten cards in 17 wooden drawers. <!-- from: raw/zettelkasten-notes.md#L13-17 -->\n\nSee [[zettelkasten]]');
    const server = await startServer((request) =>
      request.index === 0 ? { toolCalls: [{ name: 'write_file', arguments: { path: rel, content: rewritten } }] } : { text: 'Rewrote the box section.' },
    );
    const result = await runCli(['lint', '--fix', '--json'], { cwd: root, env: { ...server.env('anthropic'), WIKI_MAX_TURNS: '3' } });
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    const report = JSON.parse(result.stdout) as { batch: string; findings: Array<{ rule: string }> };
    expect(report.batch).not.toMatch(/handed back/);
    expect(report.findings.filter((f) => f.rule === 'unsupported-number')).toHaveLength(1);
  });

  it('sends nothing more when the fixes are clean', async () => {
    const root = await exampleWithFacts();
    const page = await readFile(path.join(root, rel), 'utf8');
    const server = await startServer((request) => {
      if (request.index === 0) return { toolCalls: [{ name: 'write_file', arguments: { path: rel, content: page.replace('wrote some seventy books', 'wrote about seventy books') } }] };
      return { text: 'Reworded one sentence.' };
    });
    expect(page).toContain('wrote some seventy books');
    const result = await runCli(['lint', '--fix', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(await readFile(path.join(root, rel), 'utf8')).toContain('wrote about seventy books');
    expect((JSON.parse(result.stdout) as { batch: string }).batch).not.toMatch(/handed back/);
  });
});

describe('wiki lint with a model, run again on an unchanged wiki', () => {
  it('skips the model when nothing is open and no page changed since a review that left nothing open; a changed page is reviewed again', async () => {
    const root = await tempDir();
    expect((await runCli(['init', root, '--example'])).code).toBe(0);
    const done = (): ScriptStep => ({ text: 'Reviewed the wiki; nothing to report.' });
    const first = await startServer(done);
    expect((await runCli(['lint', '--fix'], { cwd: root, env: first.env('anthropic') })).code).toBe(0);
    expect(first.requests.length).toBeGreaterThan(0);

    const second = await startServer(done);
    const again = await runCli(['lint', '--fix'], { cwd: root, env: second.env('anthropic') });
    expect(again.code).toBe(0);
    expect(second.requests).toHaveLength(0);
    expect(again.stderr + again.stdout).toMatch(/model review skipped: nothing to hand over, and no page changed since the review of/);

    const page = path.join(root, 'wiki/concepts/zettelkasten.md');
    await writeFile(page, `${await readFile(page, 'utf8')}\nA note the owner added.\n`);
    const third = await startServer(done);
    expect((await runCli(['lint', '--fix'], { cwd: root, env: third.env('anthropic') })).code).toBe(0);
    expect(third.requests.length).toBeGreaterThan(0);
  });

  it('a review that reported findings is not remembered: the next run reviews again rather than hide them', async () => {
    const root = await tempDir();
    expect((await runCli(['init', root, '--example'])).code).toBe(0);
    const finding = (): ScriptStep => ({ text: 'FINDING llm-contradiction wiki/concepts/zettelkasten.md :: the two pages disagree on the card count' });
    const first = await startServer(finding);
    await runCli(['lint', '--fix'], { cwd: root, env: first.env('anthropic') });
    const second = await startServer(finding);
    await runCli(['lint', '--fix'], { cwd: root, env: second.env('anthropic') });
    expect(second.requests.length).toBeGreaterThan(0);
  });
});
