import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer, type ScriptStep } from '../helpers/fake-llm-server.js';
import { freshWorkspace, pagePath, pageText } from './cron-fixtures.js';

/**
 * A changed source with no model at hand: `wiki lint` says so once (not as errors about
 * pages that are right for the text they were written from), `wiki lint --fix` moves the
 * citations as an ingest would and records which version they follow, and the next
 * `wiki ingest` moves nothing twice while still handing the model what changed.
 */

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SOURCE = 'raw/doc.md';
const PAGE = pagePath('source', 'doc');
const line = (i: number): string => `Line ${i} says fact number ${i} about the harbour.`;
const v1 = `${Array.from({ length: 12 }, (_, i) => line(i + 1)).join('\n')}\n`;
/** Two lines inserted at the top, line 8 changed, lines 5-6 and 9-10 deleted: 10 lines. */
const v2 = `${['A new opening line.', 'It goes on.', ...[1, 2, 3, 4, 7].map(line), 'Line 8 now says fact number 80 about the harbour.', ...[11, 12].map(line)].join('\n')}\n`;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

const BODY = [
  'The third and fourth lines give facts 3 and 4 about the harbour. <!-- from: raw/doc.md#L3-4 -->',
  '',
  'The eighth line gives fact number 8 about the harbour. <!-- from: raw/doc.md#L8 -->',
  '',
  'The last lines give facts 11 and 12 about the harbour. <!-- from: raw/doc.md#L11-12 -->',
].join('\n');

const writePage: ScriptStep = { toolCalls: [{ name: 'write_file', arguments: { path: PAGE, content: pageText('source', 'doc', { body: BODY }) } }] };

async function ingest(root: string, steps: ScriptStep[]): Promise<{ code: number; stdout: string; stderr: string; firstMessage: string }> {
  server = await startFakeLlmServer(steps);
  const result = await runCli(['ingest', SOURCE], { cwd: root, env: server.env('anthropic') });
  const firstMessage = server.requests[0]?.lastUserText ?? '';
  await server.close();
  server = undefined;
  return { ...result, firstMessage };
}

/** A wiki with raw/doc.md ingested, then changed to v2. */
async function changedWiki(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, SOURCE), v1);
  const first = await ingest(root, [writePage, { text: 'Ingested.' }]);
  expect(first.code, first.stderr).toBe(0);
  await writeFile(path.join(root, SOURCE), v2);
  return root;
}

interface LintJson {
  errors: number;
  findings: Array<{ rule: string; path: string; message: string; fix?: string; severity: string }>;
  changes?: string[];
}
const lint = async (root: string, ...args: string[]): Promise<LintJson & { code: number }> => {
  const result = await runCli(['lint', '--no-llm', '--json', ...args], { cwd: root });
  return { ...(JSON.parse(result.stdout) as LintJson), code: result.code };
};
const page = (root: string): Promise<string> => readFile(path.join(root, PAGE), 'utf8');
const record = (root: string): Promise<string> => readFile(path.join(root, 'wiki.sources.jsonl'), 'utf8');
const citations = (text: string): string[] => [...text.matchAll(/from: raw\/doc\.md#(L[\d-]+)/g)].map((m) => m[1] ?? '');

describe('wiki lint on a changed source', () => {
  it('tells the change once and holds back the findings that compare the old numbering with the new text', async () => {
    const root = await changedWiki();
    const report = await lint(root);
    expect(report.code).toBe(0);
    expect(report.errors).toBe(0);
    const told = report.findings.filter((f) => f.rule === 'changed-source');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ path: SOURCE, severity: 'warning' });
    expect(told[0]?.message).toMatch(/raw\/doc\.md changed since its last ingest: 3 citation\(s\) on 1 page\(s\) still number the lines it had; [1-9]\d* finding\(s\) that check them against the new text are held back/);
    expect(told[0]?.fix).toContain('`wiki lint --fix` (moves the citations without a model)');
    expect(told[0]?.fix).toContain('never renumber them by hand');
    // Nothing invites a person to renumber: no range check against the new text.
    expect(report.findings.filter((f) => f.rule === 'bad-citation')).toEqual([]);
    expect(JSON.stringify(report.findings)).not.toMatch(/cite lines between/);
    // The hint to run the repairs counts the follow.
    const strict = await runCli(['lint', '--no-llm', '--strict'], { cwd: root });
    expect(strict.stdout).toContain('run `wiki lint --fix --no-llm` to apply 1 safe repair');
  });

  it('a source whose earlier text is unknown is checked as before (the findings the held-back ones would be)', async () => {
    const root = await changedWiki();
    await rm(path.join(root, '.wiki/source-texts'), { recursive: true, force: true });
    const report = await lint(root);
    expect(report.findings.filter((f) => f.rule === 'changed-source')).toEqual([]);
    expect(report.findings.filter((f) => f.rule === 'bad-citation').map((f) => f.message)).toEqual(['<!-- from: raw/doc.md#L11-12 --> is outside the file (10 lines)']);
    expect(report.code).toBe(1);
  });

  it('a wiki whose sources did not change draws no changed-source finding', async () => {
    const root = await changedWiki();
    await writeFile(path.join(root, SOURCE), v1);
    const report = await lint(root);
    expect(report.findings.filter((f) => f.rule === 'changed-source')).toEqual([]);
    expect(report.errors).toBe(0);
    const fix = await lint(root, '--fix');
    expect(fix.changes).toEqual([]);
  });
});

describe('wiki lint --fix on a changed source, with no model', () => {
  it('moves the citations, records the stale claims and the followed version; the next ingest moves nothing twice and hands the model what changed', async () => {
    const root = await changedWiki();
    const fixed = await lint(root, '--fix');
    expect(fixed.code).toBe(0);
    expect(fixed.changes).toEqual([expect.stringMatching(/^raw\/doc\.md: citations moved: 2 on 1 page\(s\); stale claims: 1; marked stale: wiki\/sources\/doc\.md/)]);
    const text = await page(root);
    expect(citations(text)).toEqual(['L5-6', 'L8', 'L9-10']);
    expect(text).toMatch(/stale_since: \d{4}-\d{2}-\d{2}/);
    expect(await record(root)).toContain(`"followed":"${sha(v2)}"`);
    const log = await readFile(path.join(root, 'wiki/log.md'), 'utf8');
    expect(log.match(/^## .*lint \| --fix/gm)).toHaveLength(1);
    expect(log).toMatch(/citations moved: 2 on 1 page\(s\); stale claims: 1/);
    // Told as it is now: the citations follow it, the new lines wait; the changed sentence is a stale claim.
    const after = await lint(root);
    expect(after.errors).toBe(0);
    expect(after.findings.filter((f) => f.rule === 'changed-source').map((f) => f.message)).toEqual([expect.stringMatching(/its citations follow the new lines/)]);
    expect(after.findings.filter((f) => f.rule === 'stale-claim')).toHaveLength(1);
    const status = await runCli(['status'], { cwd: root });
    expect(status.stdout).toMatch(/1 changed since their last ingest.*: raw\/doc\.md \(its citations follow it already; its new lines wait for `wiki ingest`\)/);

    // A second run changes nothing.
    const recordBefore = await record(root);
    const again = await lint(root, '--fix');
    expect(again.changes).toEqual([]);
    expect(await page(root)).toBe(text);
    expect(await record(root)).toBe(recordBefore);

    const ingested = await ingest(root, [{ text: 'I leave it.' }]);
    expect(ingested.code, ingested.stderr).toBe(0);
    expect(ingested.firstMessage).toContain('(0 moved now; `wiki lint --fix` had moved the others earlier)');
    expect(ingested.firstMessage).toMatch(/1 sentence\(s\) cite lines that CHANGED/);
    expect(ingested.firstMessage).toContain('was: Line 8 says fact number 8 about the harbour.');
    // New since the version the model last read, not since the followed one (which is the current one).
    expect(ingested.firstMessage).toMatch(/- lines 1-2 \(read_file offset 0\): A new opening line\. It goes on\./);
    expect(ingested.firstMessage).toMatch(/- lines 8-8 \(read_file offset \d+\): Line 8 now says fact number 80/);
    expect(citations(await page(root))).toEqual(['L5-6', 'L8', 'L9-10']);
    const recorded = await record(root);
    expect(recorded).toContain(`"sha256":"${sha(v2)}"`);
    expect(recorded).not.toContain('"followed"');
    expect((await lint(root)).findings.filter((f) => f.rule === 'changed-source')).toEqual([]);
  });

  it('with a model too: the follow is among the rule repairs, before the review', async () => {
    const root = await changedWiki();
    server = await startFakeLlmServer([{ text: 'Reviewed; nothing to report.' }]);
    const fixed = await runCli(['lint', '--fix', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
    expect((JSON.parse(fixed.stdout) as LintJson).changes).toEqual(expect.arrayContaining([expect.stringMatching(/^raw\/doc\.md: citations moved: 2/)]));
    expect(citations(await page(root))).toEqual(['L5-6', 'L8', 'L9-10']);
    expect(await record(root)).toContain(`"followed":"${sha(v2)}"`);
  });

  it('a source changed again after a follow is diffed from the followed version', async () => {
    const root = await changedWiki();
    expect((await lint(root, '--fix')).code).toBe(0);
    await writeFile(path.join(root, SOURCE), `One more line on top.\n${v2}`);
    const told = (await lint(root)).findings.filter((f) => f.rule === 'changed-source');
    expect(told.map((f) => f.message)).toEqual([expect.stringMatching(/3 citation\(s\) on 1 page\(s\) still number the lines it had/)]);
    expect((await lint(root, '--fix')).code).toBe(0);
    // Each moved one line further, from where the first follow put them; the stale one stays
    // as it was written (its numbering is the ingested version's) and stays stale.
    expect(citations(await page(root))).toEqual(['L6-7', 'L8', 'L10-11']);
    expect((await lint(root)).findings.filter((f) => f.rule === 'stale-claim').map((f) => f.message)).toEqual([expect.stringMatching(/^"The eighth line gives fact number 8/)]);
  });

  it('--dry-run shows the moves and the marks and writes nothing', async () => {
    const root = await changedWiki();
    const before = { page: await page(root), record: await record(root), log: await readFile(path.join(root, 'wiki/log.md'), 'utf8') };
    const dry = await runCli(['lint', '--fix', '--no-llm', '--dry-run'], { cwd: root });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+The third and fourth lines give facts 3 and 4 about the harbour. <!-- from: raw/doc.md#L5-6 -->');
    expect(dry.stdout).toMatch(/\+stale_since: /);
    expect(dry.stdout).toMatch(/its citations follow the new lines/);
    expect({ page: await page(root), record: await record(root), log: await readFile(path.join(root, 'wiki/log.md'), 'utf8') }).toEqual(before);
    await expect(readFile(path.join(root, '.wiki/stale-claims.json'), 'utf8')).rejects.toThrow();
  });

  it('wiki undo puts the citations, the mark and the record back', async () => {
    const root = await changedWiki();
    const before = { page: await page(root), record: await record(root) };
    expect((await lint(root, '--fix')).code).toBe(0);
    expect(await page(root)).not.toBe(before.page);
    const undo = await runCli(['undo', '--yes'], { cwd: root });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect({ page: await page(root), record: await record(root) }).toEqual(before);
    // Back to the change not followed: told as such, and --fix follows it again.
    expect((await lint(root)).findings.filter((f) => f.rule === 'changed-source').map((f) => f.message)).toEqual([expect.stringMatching(/still number the lines it had/)]);
  });

  it('under --review the moves wait in a proposal; accepting it records the followed version', async () => {
    const root = await changedWiki();
    const before = { page: await page(root), record: await record(root) };
    const proposed = await runCli(['lint', '--fix', '--no-llm', '--review'], { cwd: root });
    expect(proposed.code, proposed.stderr).toBe(0);
    expect({ page: await page(root), record: await record(root) }).toEqual(before);
    const listed = JSON.parse((await runCli(['review', '--json'], { cwd: root })).stdout) as { proposals: Array<{ id: string; also?: string[] }> };
    const proposal = listed.proposals[0];
    expect(proposal?.also).toEqual(expect.arrayContaining([expect.stringMatching(/the citations of raw\/doc\.md recorded as following its version/)]));
    const accepted = await runCli(['review', 'accept', proposal?.id ?? ''], { cwd: root });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(citations(await page(root))).toEqual(['L5-6', 'L8', 'L9-10']);
    expect(await record(root)).toContain(`"followed":"${sha(v2)}"`);
  });
});

describe('a citation renumbered by hand', () => {
  it('is not moved a second time by the next ingest (the double move a hand renumbering used to get)', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, SOURCE), v1);
    expect((await ingest(root, [writePage, { text: 'Ingested.' }])).code).toBe(0);
    // Two lines inserted at the top: every cited line moves down by two.
    await writeFile(path.join(root, SOURCE), `A new opening line.\nIt goes on.\n${v1}`);
    // A person renumbers one citation to where its lines went, as the old range check invited.
    await writeFile(path.join(root, PAGE), (await page(root)).replace('raw/doc.md#L3-4', 'raw/doc.md#L5-6'));
    const ingested = await ingest(root, [{ text: 'Nothing to add.' }]);
    expect(ingested.code, ingested.stderr).toBe(0);
    expect(citations(await page(root))).toEqual(['L5-6', 'L10', 'L13-14']);
    expect(ingested.firstMessage).toContain('(2 moved)');
    expect(ingested.firstMessage).toContain('No cited line changed.');
  });

  it('renumbered to lines that are not where its lines went is moved as any other: only an exact renumbering is taken as done', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, SOURCE), v1);
    expect((await ingest(root, [writePage, { text: 'Ingested.' }])).code).toBe(0);
    await writeFile(path.join(root, SOURCE), `A new opening line.\nIt goes on.\n${v1}`);
    await writeFile(path.join(root, PAGE), (await page(root)).replace('raw/doc.md#L3-4', 'raw/doc.md#L2-3'));
    expect((await lint(root, '--fix')).code).toBe(0);
    expect(citations(await page(root))).toEqual(['L4-5', 'L10', 'L13-14']);
  });
});

describe('a page edited by hand, followed twice', () => {
  it('the tool\'s own moves are not taken for a person\'s renumbering: the second follow moves every citation again', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, SOURCE), v1);
    expect((await ingest(root, [writePage, { text: 'Ingested.' }])).code).toBe(0);
    // A person adds a line of their own: the page is the hand's now.
    await writeFile(path.join(root, PAGE), `${await page(root)}\nMy own note.\n`);
    await writeFile(path.join(root, SOURCE), `A new opening line.\nIt goes on.\n${v1}`);
    expect((await lint(root, '--fix')).code).toBe(0);
    expect(citations(await page(root))).toEqual(['L5-6', 'L10', 'L13-14']);
    // The same shift again: each tool-moved citation is exactly where the tool's first copy's would go.
    await writeFile(path.join(root, SOURCE), `Another line.\nAnd one more.\nA new opening line.\nIt goes on.\n${v1}`);
    expect((await lint(root, '--fix')).code).toBe(0);
    const text = await page(root);
    expect(citations(text)).toEqual(['L7-8', 'L12', 'L15-16']);
    expect(text).toContain('My own note.');
  });
});

describe('the ingest record\'s followed field, crafted', () => {
  it('a value that is no sha256 is refused, naming the line and the field', async () => {
    const root = await changedWiki();
    const text = await record(root);
    await writeFile(path.join(root, 'wiki.sources.jsonl'), text.replace(/\}\n$/, ',"followed":"../../etc/passwd"}\n'));
    const result = await runCli(['lint', '--fix', '--no-llm'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/wiki\.sources\.jsonl line 1: "followed" must be a sha256 in hex/);
    expect(citations(await page(root))).toEqual(['L3-4', 'L8', 'L11-12']);
  });

  it('a followed version whose text no clone kept moves nothing and is told as a change that cannot be followed', async () => {
    const root = await changedWiki();
    const text = await record(root);
    await writeFile(path.join(root, 'wiki.sources.jsonl'), text.replace(/\}\n$/, `,"followed":"${'a'.repeat(64)}"}\n`));
    const fixed = await lint(root, '--fix');
    expect(fixed.changes).toEqual([]);
    expect(citations(await page(root))).toEqual(['L3-4', 'L8', 'L11-12']);
    expect(fixed.findings.filter((f) => f.rule === 'changed-source')).toEqual([]);
  });
});

describe('wiki ingest of a changed source with no provider', () => {
  it('names `wiki lint --fix --no-llm` in its hint', async () => {
    const root = await changedWiki();
    const result = await runCli(['ingest', SOURCE], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('`wiki lint --fix --no-llm`');
  });
});
