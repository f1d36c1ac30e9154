import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, pageText, patchConfig } from './cron-fixtures.js';

/**
 * What `wiki query` prints: the answer, `cited: …` and the run's tokens and cost by
 * default, the evidence chain and the turns only with --explain, the answer alone with --quiet; --save says the page
 * was created (or updated) under a short whole-word key; a provider failure prints its cause
 * first and never claims the wiki lacks the answer.
 */

const PAGES: Record<string, string> = {
  'raw/fusion-notes.md': '# Fusion\n\nReciprocal rank fusion sums 1/(k+rank).\n',
  'wiki/concepts/reciprocal-rank-fusion.md': pageText('concept', 'reciprocal-rank-fusion', {
    refs: ['bm25'],
    sources: ['raw/fusion-notes.md'],
    body: 'Reciprocal rank fusion sums 1/(k+rank) over the rankings of each lane. See [[bm25]].',
  }),
  'wiki/concepts/bm25.md': pageText('concept', 'bm25', { sources: ['raw/fusion-notes.md'], body: 'BM25 ranks by term frequency, saturated.' }),
};

async function workspace(): Promise<string> {
  const root = await freshWorkspace();
  for (const [file, text] of Object.entries(PAGES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

const QUESTION = 'Is reciprocal rank fusion better than either lane alone, when the lanes disagree?';
const ANSWER = 'Usually: it sums 1/(k+rank) over both lanes [[reciprocal-rank-fusion]], so a page strong in [[bm25]] still counts.';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('wiki query prints what happened, briefly', () => {
  it('default: the answer, cited: … and what the run cost, no evidence chain', async () => {
    const root = await workspace();
    server = await startFakeLlmServer([{ text: ANSWER, usage: { inputTokens: 1200, outputTokens: 80 } }]);
    const result = await runCli(['query', QUESTION], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    // A cron run's log says what each query cost, as ingest and lint do (a played run found it missing).
    expect(result.stdout.startsWith(`${ANSWER}\n\ncited: reciprocal-rank-fusion, bm25\nTokens:  1.2k input · 80 output`)).toBe(true);
    expect(result.stdout).toMatch(/\nCost: +~\$\d/);
    expect(result.stdout).not.toContain('evidence chain');
    expect(result.stdout).not.toMatch(/turns? of/);
  });

  it('--explain adds the evidence chain and the turns, tokens and cost; never "No pages changed."', async () => {
    const root = await workspace();
    // One seed, so the chain shows the link followed from it (links between seeds are not listed).
    await patchConfig(root, { query: { seeds: 1 } });
    server = await startFakeLlmServer([{ text: ANSWER }]);
    const result = await runCli(['query', QUESTION, '--explain'], { cwd: root, env: server.env('openai') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/evidence chain:\n\s+reciprocal-rank-fusion --refs--> bm25/);
    expect(result.stdout).toMatch(/Tokens: /);
    expect(result.stdout).not.toContain('No pages changed.');
  });

  it('--quiet prints the answer alone', async () => {
    const root = await workspace();
    server = await startFakeLlmServer([{ text: ANSWER }]);
    const result = await runCli(['query', QUESTION, '--quiet'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${ANSWER}\n`);
  });

  it('--save says the page was created under a short whole-word key, and nothing about unchanged pages', async () => {
    const root = await workspace();
    server = await startFakeLlmServer([{ text: ANSWER }]);
    const result = await runCli(['query', QUESTION, '--save'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('created: wiki/concepts/reciprocal-rank-fusion-better.md (filed by wiki)');
    expect(result.stdout).not.toMatch(/No pages changed|saved as/);
    expect(await readFile(path.join(root, 'wiki/concepts/reciprocal-rank-fusion-better.md'), 'utf8')).toContain('[[reciprocal-rank-fusion]]');
  });
});

describe.each(['anthropic', 'openai'] as const)('wiki query when the provider fails (%s wire)', (api) => {
  it('a 401 prints the cause first, exits as a provider error does, and never says found: false', async () => {
    const root = await workspace();
    server = await startFakeLlmServer([{ fault: 'status', status: 401, message: 'invalid x-api-key' }]);
    const result = await runCli(['query', QUESTION], { cwd: root, env: server.env(api) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*(401|auth|key)/im);
    expect(result.stderr + result.stdout).not.toMatch(/found: false|\(no answer\)|evidence chain/);
    const json = await runCli(['query', QUESTION, '--json'], { cwd: root, env: (await restart()).env(api) });
    expect(json.code).toBe(2);
    const body = JSON.parse(json.stdout) as { error?: { type: string }; found?: boolean };
    expect(body.error?.type).toBe('ProviderError');
    expect(body.found).toBeUndefined();
  });
});

/** A fresh server for a second command in the same test (a script is played once). */
async function restart(): Promise<FakeLlmServer> {
  await server?.close();
  server = await startFakeLlmServer([{ fault: 'status', status: 401, message: 'invalid key' }]);
  return server;
}
