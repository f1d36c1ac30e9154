import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cloneWorkspace, hashTree, runCli } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { freshWorkspace, pagePath, pageText } from './cron-fixtures.js';
import { list, outsideState, serve } from './review-fixtures.js';

/**
 * A changed source ingested under review (issue 40, item 5): the tool's own stale marks and
 * cleared marks wait in the proposal, and the record of stale sentences (`.wiki/stale-claims.json`)
 * and the text the pages were written from (`.wiki/source-texts/`) are made when it is accepted,
 * as a direct ingest makes them — not before.
 */
const lines = (n: number): string[] => Array.from({ length: n }, (_, i) => `Line ${i + 1} says fact number ${i + 1} about the harbour.`);
const v1 = `${lines(12).join('\n')}\n`;
const PAGE = pagePath('source', 'doc');
const body = (second = 'The eighth line gives fact number 8 about the harbour. <!-- from: raw/doc.md#L8 -->'): string =>
  ['The third and fourth lines give facts 3 and 4 about the harbour. <!-- from: raw/doc.md#L3-4 -->', '', second].join('\n');
const writePage = (second?: string): ScriptStep => ({ toolCalls: [{ name: 'write_file', arguments: { path: PAGE, content: pageText('source', 'doc', { body: body(second) }) } }] });

async function ingest(root: string, steps: ScriptStep[], extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const server = await serve(steps);
  return runCli(['ingest', 'raw/doc.md', ...extra], { cwd: root, env: server.env('anthropic') });
}

async function setUp(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/doc.md'), v1);
  expect((await ingest(root, [writePage(), { text: 'Ingested.' }])).code).toBe(0);
  return root;
}

const staleClaims = async (root: string): Promise<unknown> => JSON.parse(await readFile(path.join(root, '.wiki/stale-claims.json'), 'utf8').catch(() => '{"claims":[]}')).claims;
const sourceTexts = async (root: string): Promise<string[]> => [...(await hashTree(root)).keys()].filter((f) => f.startsWith('.wiki/source-texts/')).sort();
/** What a person sees, less the log and the source record, whose entries name their run and time (compared by `record`). */
const visible = async (root: string): Promise<Map<string, string>> => new Map([...(await outsideState(root))].filter(([file]) => file !== 'wiki/log.md' && file !== 'wiki.sources.jsonl'));
/** The source record without when and by which run each source was ingested. */
const record = async (root: string): Promise<unknown[]> =>
  (await readFile(path.join(root, 'wiki.sources.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => {
      const { ingestedAt: _at, runId: _run, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    });
const staleFindings = async (root: string): Promise<unknown[]> =>
  (JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string }> }).findings.filter((f) => f.rule === 'stale-claim');

describe('stale sentences of a changed source, under review', () => {
  it('the mark waits in the proposal and the record is made on accept, as a direct ingest makes both', async () => {
    const root = await setUp();
    await writeFile(path.join(root, 'raw/doc.md'), v1.replace('Line 8 says fact number 8', 'Line 8 now says fact number 80'));
    const twin = await cloneWorkspace(root);
    const before = await outsideState(root);
    const textsBefore = await sourceTexts(root);

    const proposed = await ingest(root, [{ text: 'I leave it.' }], ['--review', '--json']);
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(await outsideState(root)).toEqual(before);
    expect(await staleClaims(root)).toEqual([]);
    expect(await staleFindings(root)).toEqual([]);
    expect(await sourceTexts(root)).toEqual(textsBefore);
    const [proposal] = (await list(root)).proposals;
    expect(proposal).toMatchObject({ pages: [{ path: PAGE, change: 'updated' }], also: ['1 sentence(s) citing changed lines of raw/doc.md recorded as stale, as their pages land'] });

    expect((await ingest(twin, [{ text: 'I leave it.' }])).code).toBe(0);
    const accepted = await runCli(['review', 'accept', proposal?.id ?? ''], { cwd: root });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/1 sentence\(s\) citing changed lines of raw\/doc\.md recorded as stale/);
    expect(await visible(root)).toEqual(await visible(twin));
    expect(await record(root)).toEqual(await record(twin));
    expect(await staleClaims(root)).toEqual(await staleClaims(twin));
    expect(await staleFindings(root)).toHaveLength(1);
    expect(await sourceTexts(root)).toEqual(await sourceTexts(twin));
    expect((await sourceTexts(root)).length).toBe(textsBefore.length + 1);
  });

  it('a stale sentence the model rewrites: the cleared mark waits in the proposal; accepted, the record is empty as after a direct run', async () => {
    const root = await setUp();
    await writeFile(path.join(root, 'raw/doc.md'), v1.replace('Line 8 says fact number 8', 'Line 8 now says fact number 80'));
    expect((await ingest(root, [{ text: 'Done.' }])).code).toBe(0);
    expect(await readFile(path.join(root, PAGE), 'utf8')).toMatch(/stale_since/);
    await writeFile(path.join(root, 'raw/doc.md'), v1.replace('Line 8 says fact number 8', 'Line 8 now says fact number 81'));
    const twin = await cloneWorkspace(root);
    const rewrite = (): ScriptStep[] => [writePage('The eighth line now gives fact number 81 about the harbour. <!-- from: raw/doc.md#L8 -->'), { text: 'Updated the sentence.' }];

    const proposed = await ingest(root, rewrite(), ['--review', '--json']);
    expect(proposed.code, proposed.stderr).toBe(0);
    const [proposal] = (await list(root)).proposals;
    const shown = JSON.parse((await runCli(['review', 'show', proposal?.id ?? '', '--json'], { cwd: root })).stdout) as { pages: Array<{ diff: string }> };
    expect(shown.pages[0]?.diff).toMatch(/^-stale_since: /m);
    expect(await staleFindings(root)).toHaveLength(1);

    expect((await ingest(twin, rewrite())).code).toBe(0);
    const accepted = await runCli(['review', 'accept', proposal?.id ?? ''], { cwd: root });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(await readFile(path.join(root, PAGE), 'utf8')).not.toMatch(/stale_since/);
    expect(await visible(root)).toEqual(await visible(twin));
    expect(await record(root)).toEqual(await record(twin));
    expect(await staleClaims(root)).toEqual([]);
    expect(await staleClaims(twin)).toEqual([]);
  });
});
