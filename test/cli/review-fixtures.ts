/**
 * Shared pieces of the review-*.test.ts suites: a workspace with one ingest behind it, the
 * proposals the scripted model makes in it, and the state a run under review must leave alone.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { hashTree, runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, pagePath, pageText, simpleIngest, writeStep } from './cron-fixtures.js';

/** Scripted model servers, closed after each test of the file importing this. */
export const serve = fakeServers();


export interface ListJson {
  proposals: Array<{ id: string; command: string; pages: Array<{ path: string; change: string }>; created: string }>;
}

/** Everything outside .wiki/: what a run under review must leave alone. */
export async function outsideState(root: string): Promise<Map<string, string>> {
  return new Map([...(await hashTree(root))].filter(([file]) => !file.startsWith('.wiki')));
}

export async function list(root: string, env: Record<string, string | undefined> = {}): Promise<ListJson> {
  const result = await runCli(['review', '--json'], { cwd: root, env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ListJson;
}

/** A workspace with one real ingest behind it (raw/beta.md → wiki/sources/beta.md). */
export async function ingestedWorkspace(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is a dataset.\n');
  const server = await serve(simpleIngest('beta', { body: 'Beta is a dataset.' }));
  const result = await runCli(['ingest', 'raw/beta.md'], { cwd: root, env: server.env('anthropic') });
  if (result.code !== 0) throw new Error(`setup ingest failed: ${result.stdout}${result.stderr}`);
  return root;
}

/** An ingest of raw/alpha.md writing three pages: the source page, linking to two new concepts. */
export const THREE_PAGES = [
  {
    toolCalls: [
      { name: 'write_file', arguments: { path: pagePath('concept', 'gamma'), content: pageText('concept', 'gamma', { sources: ['raw/alpha.md'], body: 'Gamma is a measure.' }) } },
      { name: 'write_file', arguments: { path: pagePath('concept', 'delta'), content: pageText('concept', 'delta', { sources: ['raw/alpha.md'], body: 'Delta is a change.' }) } },
    ],
  },
  writeStep('source', 'alpha', { refs: ['gamma'], body: 'Alpha builds on [[gamma]] and [[beta]].' }),
  { text: 'Ingested raw/alpha.md.' },
];

export async function proposeAlpha(root: string): Promise<{ id: string; stdout: string; stderr: string }> {
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha builds on gamma and beta.\n');
  const server = await serve(THREE_PAGES);
  const result = await runCli(['ingest', 'raw/alpha.md', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
  expect(result.code, result.stderr).toBe(0);
  expect(server.remaining()).toBe(0);
  const report = JSON.parse(result.stdout) as { proposals: ListJson['proposals']; proposalsWaiting: number };
  expect(report.proposals).toHaveLength(1);
  return { id: report.proposals[0]?.id ?? '', stdout: result.stdout, stderr: result.stderr };
}

/** raw/beta.md changed; the run updates the beta page's body line. */
export async function proposeBetaUpdate(root: string): Promise<string> {
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is a dataset of images.\n');
  const server = await serve(simpleIngest('beta', { body: 'Beta is a dataset of images.' }));
  const result = await runCli(['ingest', 'raw/beta.md', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
  expect(result.code, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout) as { proposals: ListJson['proposals'] };
  expect(report.proposals[0]?.pages).toEqual([{ path: 'wiki/sources/beta.md', change: 'updated' }]);
  return report.proposals[0]?.id ?? '';
}
