import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer, type ScriptStep } from '../helpers/fake-llm-server.js';
import { freshWorkspace, pagePath, pageText } from './cron-fixtures.js';

/**
 * When a source changes, its citations follow it and staleness is claim by claim: a
 * paragraph inserted above cited lines moves every citation below it and leaves nothing
 * stale; a changed cited line makes only the sentences citing it stale, handed to the model
 * with the old and new lines; a sentence settles only when it is rewritten or removed.
 */

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const lines = (n: number, text = (i: number): string => `Line ${i} says fact number ${i} about the harbour.`): string[] => Array.from({ length: n }, (_, i) => text(i + 1));
const v1 = `${lines(12).join('\n')}\n`;
const SOURCE_PAGE = pagePath('source', 'doc');

const body = (second = 'The eighth line gives fact number 8 about the harbour. <!-- from: raw/doc.md#L8 -->'): string =>
  ['The third and fourth lines give facts 3 and 4 about the harbour. <!-- from: raw/doc.md#L3-4 -->', '', second].join('\n');

function writePage(second?: string): ScriptStep {
  return { toolCalls: [{ name: 'write_file', arguments: { path: SOURCE_PAGE, content: pageText('source', 'doc', { body: body(second) }) } }] };
}

async function ingest(root: string, steps: ScriptStep[]): Promise<{ code: number; stdout: string; stderr: string; firstMessage: string }> {
  server = await startFakeLlmServer(steps);
  const result = await runCli(['ingest', 'raw/doc.md'], { cwd: root, env: server.env('anthropic') });
  const firstMessage = server.requests[0]?.lastUserText ?? '';
  await server.close();
  server = undefined;
  return { ...result, firstMessage };
}

async function setUp(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/doc.md'), v1);
  const first = await ingest(root, [writePage(), { text: 'Ingested.' }]);
  expect(first.code, first.stderr).toBe(0);
  return root;
}

const page = (root: string): Promise<string> => readFile(path.join(root, SOURCE_PAGE), 'utf8');

describe('a source that changes', () => {
  it('a paragraph inserted above cited lines moves every citation below it, and nothing is stale', async () => {
    const root = await setUp();
    await writeFile(path.join(root, 'raw/doc.md'), ['A new opening paragraph.', 'It goes on.', '', ...lines(12)].join('\n') + '\n');
    const again = await ingest(root, [{ text: 'Nothing to add.' }]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.firstMessage).toContain('updated for you (2 moved)');
    expect(again.firstMessage).toMatch(/Lines new in this version[^\n]*\n- lines 1-3 \(read_file offset 0\): A new opening paragraph\. It goes on\./);
    // The change is described; the first-ingest instruction to read the whole source is not given.
    expect(again.firstMessage).not.toMatch(/until the end of the file/);
    const text = await page(root);
    expect(text).toContain('<!-- from: raw/doc.md#L6-7 -->');
    expect(text).toContain('<!-- from: raw/doc.md#L11 -->');
    expect(text).not.toMatch(/stale_since/);
    const log = await readFile(path.join(root, 'wiki/log.md'), 'utf8');
    expect(log).toMatch(/citations moved: 2/);
    expect(log).toMatch(/stale claims: 0/);
  });

  it('a changed cited line makes only the sentence citing it stale, and the model is handed both versions', async () => {
    const root = await setUp();
    await writeFile(path.join(root, 'raw/doc.md'), v1.replace('Line 8 says fact number 8', 'Line 8 now says fact number 80'));
    const again = await ingest(root, [{ text: 'I leave it.' }]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.firstMessage).toMatch(/1 sentence\(s\) cite lines that CHANGED/);
    expect(again.firstMessage).toContain('was: Line 8 says fact number 8 about the harbour.');
    expect(again.firstMessage).toMatch(/now \(now lines 8-8, read_file offset \d+\): Line 8 now says fact number 80 about the harbour\./);
    expect(again.firstMessage).not.toContain('facts 3 and 4');
    const text = await page(root);
    expect(text).toMatch(/stale_since: \d{4}-\d{2}-\d{2}/);
    const claims = JSON.parse(await readFile(path.join(root, '.wiki/stale-claims.json'), 'utf8')) as { claims: Array<{ sentence: string; first: number }> };
    expect(claims.claims.map((c) => [c.sentence, c.first])).toEqual([['The eighth line gives fact number 8 about the harbour.', 8]]);
    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string; path: string; line: number; message: string }> };
    const stale = lint.findings.filter((f) => f.rule === 'stale-claim');
    expect(stale).toHaveLength(1);
    expect(stale[0]?.path).toBe(SOURCE_PAGE);
    expect(text.split("\n")[(stale[0]?.line ?? 0) - 1], JSON.stringify(stale) + text).toContain('The eighth line gives fact number 8');
    expect(stale[0]?.message).toContain('was "Line 8 says fact number 8 about the harbour."');
    expect(stale[0]?.message).toContain('now "Line 8 now says fact number 80 about the harbour."');
    const status = await runCli(['status'], { cwd: root });
    expect(status.stdout).toMatch(/Stale claims: 1 sentence\(s\) cite source lines that changed/);
    // A person who rewrites the sentence by hand settles it too.
    await writeFile(path.join(root, SOURCE_PAGE), text.replace('fact number 8 about', 'fact number 80 about'));
    const after = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string }> };
    expect(after.findings.filter((f) => f.rule === 'stale-claim')).toEqual([]);
  });

  it('a stale sentence the model rewrites is settled and the page loses its mark; silence settles nothing', async () => {
    const root = await setUp();
    await writeFile(path.join(root, 'raw/doc.md'), v1.replace('Line 8 says fact number 8', 'Line 8 now says fact number 80'));
    const silent = await ingest(root, [{ text: 'Done.' }]);
    expect(silent.code, silent.stderr).toBe(0);
    expect(await page(root)).toMatch(/stale_since/);
    await writeFile(path.join(root, 'raw/doc.md'), v1.replace('Line 8 says fact number 8', 'Line 8 now says fact number 81'));
    const fixed = await ingest(root, [writePage('The eighth line now gives fact number 81 about the harbour. <!-- from: raw/doc.md#L8 -->'), { text: 'Updated the sentence.' }]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(await page(root)).not.toMatch(/stale_since/);
    const claims = JSON.parse(await readFile(path.join(root, '.wiki/stale-claims.json'), 'utf8')) as { claims: unknown[] };
    expect(claims.claims).toEqual([]);
  });

  it('a cited section deleted: only the sentence citing it is stale, shown as removed; the other citation follows its lines', async () => {
    const root = await setUp();
    // Lines 7-9 go; line 8 was cited.
    await writeFile(path.join(root, 'raw/doc.md'), `${lines(12).filter((_, i) => i < 6 || i > 8).join('\n')}\n`);
    const again = await ingest(root, [{ text: 'I leave it.' }]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.firstMessage).toMatch(/1 sentence\(s\) cite lines that CHANGED/);
    expect(again.firstMessage).toContain('was: Line 8 says fact number 8 about the harbour.');
    expect(again.firstMessage).toMatch(/now: \(removed\)/);
    const text = await page(root);
    expect(text).toContain('<!-- from: raw/doc.md#L3-4 -->');
    expect(text).toContain('<!-- from: raw/doc.md#L8 -->');
    expect(text).toMatch(/stale_since/);
    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string; message: string }> };
    expect(lint.findings.filter((f) => f.rule === 'stale-claim').map((f) => f.message)).toEqual([expect.stringMatching(/now removed$/)]);
  });

  it('ingest --force of the unchanged source hands over the stale sentences still open', async () => {
    const root = await setUp();
    await writeFile(path.join(root, 'raw/doc.md'), v1.replace('Line 8 says fact number 8', 'Line 8 now says fact number 80'));
    expect((await ingest(root, [{ text: 'Done.' }])).code).toBe(0);
    server = await startFakeLlmServer([writePage('The eighth line now gives fact number 80 about the harbour. <!-- from: raw/doc.md#L8 -->'), { text: 'Settled it.' }]);
    const forced = await runCli(['ingest', 'raw/doc.md', '--force'], { cwd: root, env: server.env('anthropic') });
    expect(forced.code, forced.stderr).toBe(0);
    expect(server.requests[0]?.lastUserText).toContain('was: Line 8 says fact number 8 about the harbour.');
    expect(await page(root)).not.toMatch(/stale_since/);
    expect(forced.stdout).toMatch(/stale claims: 0 \(1 of 1 settled\)/);
  });

  it('undo puts the moved citations back', async () => {
    const root = await setUp();
    const before = await page(root);
    await writeFile(path.join(root, 'raw/doc.md'), ['Inserted.', ...lines(12)].join('\n') + '\n');
    expect((await ingest(root, [{ text: 'Nothing to add.' }])).code).toBe(0);
    expect(await page(root)).not.toBe(before);
    const undo = await runCli(['undo', '--yes'], { cwd: root });
    expect(undo.code, undo.stderr + undo.stdout).toBe(0);
    expect(await page(root)).toBe(before);
  });
});

describe('a source renamed or moved', () => {
  it('is the same source: the record, sources and citations follow it, and no model is paid', async () => {
    const root = await setUp();
    const { mkdir, rename } = await import('node:fs/promises');
    await mkdir(path.join(root, 'raw/papers'));
    await rename(path.join(root, 'raw/doc.md'), path.join(root, 'raw/papers/doc-v1.md'));
    server = await startFakeLlmServer([]);
    const result = await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(result.stdout).toMatch(/raw\/doc\.md renamed to raw\/papers\/doc-v1\.md: same content, nothing re-ingested; 1 page\(s\) follow it/);
    const text = await page(root);
    expect(text).toContain('sources: [raw/papers/doc-v1.md]');
    expect(text).toContain('<!-- from: raw/papers/doc-v1.md#L3-4 -->');
    expect(text).not.toContain('raw/doc.md');
    const record = await readFile(path.join(root, 'wiki.sources.jsonl'), 'utf8');
    expect(record).toContain('"path":"raw/papers/doc-v1.md"');
    expect(record).not.toContain('"path":"raw/doc.md"');
    const lint = await runCli(['lint', '--json'], { cwd: root });
    expect((JSON.parse(lint.stdout) as { errors: number }).errors).toBe(0);
    const again = await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') });
    expect(again.stdout).toMatch(/Nothing to do/);
  });

  it('needs no model provider: status names the move, and ingest follows it with none configured (a user was refused "no model provider")', async () => {
    const root = await setUp();
    const { rename } = await import('node:fs/promises');
    await rename(path.join(root, 'raw/doc.md'), path.join(root, 'raw/doc-renamed.md'));
    const status = await runCli(['status'], { cwd: root });
    expect(status.stdout).toContain('1 moved (same content; no model needed): raw/doc.md → raw/doc-renamed.md');
    expect(status.stdout).not.toMatch(/not ingested yet|deleted since/);
    const result = await runCli(['ingest', 'raw/'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/raw\/doc\.md renamed to raw\/doc-renamed\.md: same content, nothing re-ingested/);
    expect(await page(root)).toContain('<!-- from: raw/doc-renamed.md#L3-4 -->');
    // A source that needs a model is still refused before anything is written.
    await writeFile(path.join(root, 'raw/other.md'), 'Another source.\n');
    const refused = await runCli(['ingest', 'raw/other.md'], { cwd: root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no model provider is configured/);
  });

  it('a new file that merely shares content with a source still present is a new source', async () => {
    const root = await setUp();
    await writeFile(path.join(root, 'raw/copy.md'), v1);
    server = await startFakeLlmServer([{ toolCalls: [{ name: 'write_file', arguments: { path: pagePath('source', 'copy'), content: pageText('source', 'copy') } }] }, { text: 'Ingested the copy.' }]);
    const result = await runCli(['ingest', 'raw/copy.md'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/renamed/);
    expect(await page(root)).toContain('sources: [raw/doc.md]');
  });
});
