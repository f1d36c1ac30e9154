import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, manifestSources, pagePath, pageText, patchConfig, read, simpleIngest, writeStep } from './cron-fixtures.js';

/**
 * Review before it lands: a run under --review leaves a proposal instead of changing wiki/;
 * `wiki review` lists, shows, accepts and rejects it page by page.
 */

const serve = fakeServers();

interface ListJson {
  proposals: Array<{ id: string; command: string; pages: Array<{ path: string; change: string }>; created: string }>;
}

/** Everything outside .wiki/: what a run under review must leave alone. */
async function outsideState(root: string): Promise<Map<string, string>> {
  return new Map([...(await hashTree(root))].filter(([file]) => !file.startsWith('.wiki')));
}

async function list(root: string, env: Record<string, string | undefined> = {}): Promise<ListJson> {
  const result = await runCli(['review', '--json'], { cwd: root, env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ListJson;
}

/** A workspace with one real ingest behind it (raw/beta.md → wiki/sources/beta.md). */
async function ingestedWorkspace(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is a dataset.\n');
  const server = await serve(simpleIngest('beta', { body: 'Beta is a dataset.' }));
  const result = await runCli(['ingest', 'raw/beta.md'], { cwd: root, env: server.env('anthropic') });
  if (result.code !== 0) throw new Error(`setup ingest failed: ${result.stdout}${result.stderr}`);
  return root;
}

/** An ingest of raw/alpha.md writing three pages: the source page, linking to two new concepts. */
const THREE_PAGES = [
  {
    toolCalls: [
      { name: 'write_file', arguments: { path: pagePath('concept', 'gamma'), content: pageText('concept', 'gamma', { sources: ['raw/alpha.md'], body: 'Gamma is a measure.' }) } },
      { name: 'write_file', arguments: { path: pagePath('concept', 'delta'), content: pageText('concept', 'delta', { sources: ['raw/alpha.md'], body: 'Delta is a change.' }) } },
    ],
  },
  writeStep('source', 'alpha', { refs: ['gamma'], body: 'Alpha builds on [[gamma]] and [[beta]].' }),
  { text: 'Ingested raw/alpha.md.' },
];

async function proposeAlpha(root: string): Promise<{ id: string; stdout: string; stderr: string }> {
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha builds on gamma and beta.\n');
  const server = await serve(THREE_PAGES);
  const result = await runCli(['ingest', 'raw/alpha.md', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
  expect(result.code, result.stderr).toBe(0);
  expect(server.remaining()).toBe(0);
  const report = JSON.parse(result.stdout) as { proposals: ListJson['proposals']; proposalsWaiting: number };
  expect(report.proposals).toHaveLength(1);
  return { id: report.proposals[0]?.id ?? '', stdout: result.stdout, stderr: result.stderr };
}

describe('wiki ingest --review', () => {
  it('writes a proposal, not wiki/ (nor the ingest record); the listing, status and search see it as waiting only', async () => {
    const root = await ingestedWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha builds on gamma and beta.\n');
    const before = await outsideState(root);
    const server = await serve(THREE_PAGES);
    const result = await runCli(['ingest', 'raw/alpha.md', '--review'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/proposal \S+ waits: 3 page\(s\)/);
    expect(result.stderr).toContain('1 proposal waits for review (wiki review)');
    expect(await outsideState(root)).toEqual(before);
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);

    const listed = await list(root);
    expect(listed.proposals).toEqual([
      {
        id: expect.stringMatching(/^\d{8}-\d{6}-[0-9a-f]{6}$/),
        command: 'ingest',
        pages: [
          { path: 'wiki/concepts/delta.md', change: 'created' },
          { path: 'wiki/concepts/gamma.md', change: 'created' },
          { path: 'wiki/sources/alpha.md', change: 'created' },
        ],
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    const status = await runCli(['status', '--json'], { cwd: root });
    expect(JSON.parse(status.stdout).proposals).toEqual(listed.proposals);
    expect((await runCli(['status'], { cwd: root })).stdout).toContain('1 proposal waits (3 page(s))');
    const search = await runCli(['search', 'gamma measure', '--json'], { cwd: root });
    expect(search.stdout).not.toContain('gamma.md');
  });

  it('accept lands every page as one undoable run with one log entry, and records the source; undo takes it back', async () => {
    const root = await ingestedWorkspace();
    const { id } = await proposeAlpha(root);
    const before = await hashTree(root);
    const logBefore = await read(root, 'wiki/log.md');

    const accepted = await runCli(['review', 'accept', id, '--json'], { cwd: root });
    expect(accepted.code, accepted.stderr).toBe(0);
    const report = JSON.parse(accepted.stdout);
    expect(report).toMatchObject({ id, refused: [], remaining: 0, recordedSource: 'raw/alpha.md' });
    expect(report.accepted.map((a: { path: string }) => a.path)).toEqual(['wiki/concepts/delta.md', 'wiki/concepts/gamma.md', 'wiki/sources/alpha.md']);
    expect(await read(root, 'wiki/sources/alpha.md')).toContain('Alpha builds on [[gamma]] and [[beta]].');
    const index = await read(root, 'wiki/index.md');
    for (const key of ['alpha', 'gamma', 'delta']) expect(index).toContain(`[[${key}]]`);
    const added = (await read(root, 'wiki/log.md')).slice(logBefore.length);
    expect(added.match(/^## \[/gm)).toHaveLength(1);
    expect(added).toContain(`accepted from proposal ${id}: 3 of 3 page(s)`);
    expect(added).toContain(`run: ${report.runId}`);
    expect(await manifestSources(root)).toEqual(['raw/alpha.md', 'raw/beta.md']);
    expect((await list(root)).proposals).toEqual([]);

    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    expect(JSON.parse(lint.stdout).errors).toBe(0);

    const undone = await runCli(['undo', report.runId, '--yes'], { cwd: root });
    expect(undone.code, undone.stderr).toBe(0);
    expect(existsSync(path.join(root, 'wiki/sources/alpha.md'))).toBe(false);
    expect(existsSync(path.join(root, 'wiki/concepts/gamma.md'))).toBe(false);
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);
    const after = await hashTree(root);
    for (const file of ['wiki/index.md', 'wiki.sources.jsonl', 'wiki/sources/beta.md']) expect(after.get(file)).toEqual(before.get(file));
  });
});
