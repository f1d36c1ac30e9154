import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBeforeImage } from '../../src/state/history.js';
import { hashTree, runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, manifestSources, pagePath, pageText, read, simpleIngest, writeStep, readAsSent } from './cron-fixtures.js';

/**
 * Trying a run without consequences (--dry-run leaves the workspace byte for byte as it
 * was) and taking one back (undo restores exactly what the run changed, human edits
 * included).
 */

const serve = fakeServers();

/** A workspace with one real ingest behind it, so .wiki/ has a manifest, history, written.json and a search index. */
async function ingestedWorkspace(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is a dataset.\n');
  const server = await serve(simpleIngest('beta', { body: 'Beta is a dataset.' }));
  const result = await runCli(['ingest', 'raw/beta.md'], { cwd: root, env: server.env('anthropic') });
  if (result.code !== 0) throw new Error(`setup ingest failed: ${result.stdout}${result.stderr}`);
  return root;
}

const ALPHA_SOURCE = pageText('source', 'alpha', { refs: ['beta'], body: 'Alpha builds on [[beta]].' });

describe('--dry-run', () => {
  it('ingest: runs the model against an overlay, prints the diff, and leaves every byte (.wiki/ included) as it was', async () => {
    const root = await ingestedWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha builds on beta.\n');
    const script = [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/alpha.md', content: ALPHA_SOURCE } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'wiki/sources/alpha.md' } }] },
      { text: 'Would ingest alpha.' },
    ];
    const before = await hashTree(root);

    let server = await serve(script);
    const human = await runCli(['ingest', 'raw/alpha.md', '--dry-run'], { cwd: root, env: server.env('anthropic') });
    expect(human.code).toBe(0);
    expect(server.remaining()).toBe(0);
    // Inside the run the overlay behaves like the disk: the page it wrote reads back.
    expect(server.requests[2]?.toolResults[0]?.content).toContain('Alpha builds on [[beta]].');
    expect(human.stdout).toContain('--- /dev/null\n+++ b/wiki/sources/alpha.md');
    expect(human.stdout).toContain('+Alpha builds on [[beta]].');
    expect(human.stdout).toMatch(/^\+\+\+ b\/wiki\/index\.md$/m);
    expect(await hashTree(root)).toEqual(before);

    server = await serve(script);
    const json = await runCli(['ingest', 'raw/alpha.md', '--dry-run', '--json'], { cwd: root, env: server.env('openai') });
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.diff).toContain('+++ b/wiki/sources/alpha.md');
    expect(report.ingested[0]).toMatchObject({ status: 'done', created: ['wiki/sources/alpha.md'] });
    expect(report.ingested[0].transcript).toBeUndefined(); // nothing written to .wiki/runs/
    expect(await hashTree(root)).toEqual(before);
  });

  it('ingest in a workspace that never ran anything: not even .wiki/ appears', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha.\n');
    const before = await hashTree(root);
    const server = await serve(simpleIngest('alpha'));
    const result = await runCli(['ingest', 'raw/alpha.md', '--dry-run'], { cwd: root, env: server.env('openai') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('+++ b/wiki/sources/alpha.md');
    expect(await hashTree(root)).toEqual(before);
  });

  it('query --save: the would-be page is in the diff, nothing is written', async () => {
    const root = await ingestedWorkspace();
    const before = await hashTree(root);
    const server = await serve([
      { toolCalls: [{ name: 'search_wiki', arguments: { query: 'beta dataset' } }] },
      { text: 'Beta is a dataset [[beta]].' },
    ]);
    const result = await runCli(['query', 'what is beta?', '--save', '--dry-run', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.saved).toEqual({ path: 'wiki/concepts/what-is-beta.md', by: 'wiki', created: true });
    expect(report.diff).toContain('+++ b/wiki/concepts/what-is-beta.md');
    expect(report.diff).toContain('+Beta is a dataset [[beta]].');
    expect(report.diff).toContain('+++ b/wiki/log.md');
    expect(await hashTree(root)).toEqual(before);
  });
});

describe('wiki undo after an ingest', () => {
  it('deletes the pages the run created, restores what it changed, forgets the ingest, and logs the undo', async () => {
    const root = await ingestedWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha builds on beta.\n');
    const before = await hashTree(root);
    const server = await serve([
      writeStep('concept', 'alpha-idea', { sources: ['raw/alpha.md'] }),
      { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/alpha.md', content: ALPHA_SOURCE } }] },
      writeStep('source', 'beta', { body: 'Beta is a dataset; alpha builds on it.' }),
      { text: 'Done.' },
    ]);
    const ingest = await runCli(['ingest', 'raw/alpha.md', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(ingest.code, ingest.stdout + ingest.stderr).toBe(0);
    expect(JSON.parse(ingest.stdout).ingested[0]).toMatchObject({
      created: ['wiki/concepts/alpha-idea.md', 'wiki/sources/alpha.md'],
      updated: ['wiki/sources/beta.md'],
    });

    const undo = await runCli(['undo', '--yes', '--json'], { cwd: root });
    expect(undo.code).toBe(0);
    const result = JSON.parse(undo.stdout);
    expect(result.outcome).toBe('applied');
    const acted = Object.fromEntries(result.actions.map((a: { path: string; action: string }) => [a.path, a.action]));
    expect(acted).toEqual({
      'wiki/concepts/alpha-idea.md': 'delete',
      'wiki/sources/alpha.md': 'delete',
      'wiki/sources/beta.md': 'restore',
      'wiki/index.md': 'restore',
      'wiki.sources.jsonl': 'restore',
    });

    const after = await hashTree(root);
    const differing = [...new Set([...before.keys(), ...after.keys()])].filter((file) => before.get(file) !== after.get(file));
    // Only the append-only log and machine state (history, written.json, search index, transcripts) differ.
    expect(differing.filter((file) => !file.startsWith('.wiki/') || file === 'wiki.sources.jsonl')).toEqual(['wiki/log.md']);
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);
    const log = await read(root, 'wiki/log.md');
    expect(log).toMatch(/^## \[\d{4}-\d{2}-\d{2}\] undo \| \S+ \(ingest: raw\/alpha\.md\) · run \S+$/m);
    expect(log).toContain('deleted wiki/sources/alpha.md (created by that run)');
  });
});

describe('a page edited by hand since wiki wrote it', () => {
  it('is flagged to the model on read and write, and its before-image is kept so undo brings the human version back', async () => {
    const root = await ingestedWorkspace();
    const betaPath = pagePath('source', 'beta');
    const edited = `${await read(root, betaPath)}\nA paragraph a human added by hand.\n`;
    await writeFile(path.join(root, betaPath), edited);

    const rewritten = pageText('source', 'beta', { body: 'Beta is a dataset.\n\nA paragraph a human added by hand.\n\nAnd one the model added.' });
    const server = await serve([
      { toolCalls: [{ name: 'read_file', arguments: { path: betaPath } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: betaPath, content: rewritten } }] },
      { text: 'Kept the human paragraph and added one.' },
    ]);
    const ingest = await runCli(['ingest', 'raw/beta.md', '--force', '--json'], { cwd: root, env: server.env('openai') });
    expect(ingest.code).toBe(0);
    const readResult = server.requests[1]?.toolResults[0];
    expect(readResult?.content).toContain('A human edited this page since wiki last wrote it');
    expect(readResult?.content).toContain('A paragraph a human added by hand.');
    const writeResult = server.requests[2]?.toolResults[0];
    expect(writeResult?.content).toMatch(/^updated wiki\/sources\/beta\.md[\s\S]*note: A human edited this page/);
    expect(await readAsSent(root, betaPath)).toBe(rewritten);

    // The before-image of this run is the human's version.
    // The newest run as undo sees it (run ids of one second do not sort by time: their tail is random).
    const listed = JSON.parse((await runCli(['undo', '--list', '--json'], { cwd: root })).stdout) as { runs: Array<{ runId: string }> };
    const latest = listed.runs[0]?.runId ?? '';
    expect((await readBeforeImage(root, latest, betaPath))?.toString('utf8')).toBe(edited);

    const undo = await runCli(['undo', '--yes'], { cwd: root });
    expect(undo.code).toBe(0);
    expect(await read(root, betaPath)).toBe(edited);
    expect(existsSync(path.join(root, '.wiki/lock'))).toBe(false);
  });
});
