import { execFileSync } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer, type ScriptStep } from '../helpers/fake-llm-server.js';
import { makePdf } from '../helpers/pdf-fixture.js';
import { stderrBesideFactsWarning } from '../helpers/sqlite.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

const ARTICLE = `<!doctype html><html><head><title>Retrieval fusion explained</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Retrieval fusion explained</h1>
<p>Reciprocal rank fusion adds one over sixty plus the rank for each list a document appears in. It needs no score calibration, which is why hybrid search systems use it to merge lexical and semantic rankings.</p>
<h2>Why it works</h2>
<p>Documents ranked well by several retrievers rise to the top. The constant sixty damps the influence of the very first ranks, so no single list dominates the fused ranking.</p>
<img src="/diagram.png" alt="diagram">
</article><footer>Copyright</footer></body></html>`;

function sourcePage(key: string, title: string, raw: string): string {
  return `---\ntitle: ${title}\nsummary: Summary of ${title}.\ntype: source\nsources: [${raw}]\ncreated: 2026-11-21\nupdated: 2026-11-21\n---\n\n${title} in brief.\n`;
}

/** A model that writes one source page for whatever raw file the first message names, then stops. */
function writeSourcePageScript(key: string, title: string, raw: string): ScriptStep[] {
  return [
    { toolCalls: [{ name: 'write_file', arguments: { path: `wiki/sources/${key}.md`, content: sourcePage(key, title, raw) } }] },
    { text: 'Done.' },
  ];
}

let llm: FakeLlmServer | undefined;
let web: http.Server | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
  await new Promise<void>((resolve) => (web ? web.close(() => resolve()) : resolve()));
  web = undefined;
});

async function serveWeb(): Promise<string> {
  web = http.createServer((req, res) => {
    if (req.url === '/article.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    else if (req.url === '/diagram.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => web?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
}

describe('sources from the user’s world', () => {
  it('ingests a URL: fetched, converted to markdown with its URL and date, images kept under raw/assets', async () => {
    const root = await initWorkspace();
    const base = await serveWeb();
    llm = await startFakeLlmServer((request) =>
      request.index === 0
        ? writeSourcePageScript('retrieval-fusion-explained', 'Retrieval fusion explained', 'raw/retrieval-fusion-explained.md')[0]!
        : { text: 'Done.' },
    );
    const result = await runCli(['ingest', `${base}/article.html`], { cwd: root, env: llm.env('anthropic') });
    expect(result.stderr).not.toMatch(/error:/);
    expect(result.code).toBe(0);
    const raw = await readFile(path.join(root, 'raw/retrieval-fusion-explained.md'), 'utf8');
    expect(raw).toMatch(new RegExp(`^---\\n[\\s\\S]*url: ${base}/article.html`));
    expect(raw).toMatch(/fetched: \d{4}-\d{2}-\d{2}/);
    expect(raw).toContain('## Why it works');
    expect(raw).not.toContain('Copyright');
    expect(await readdir(path.join(root, 'raw/assets'))).toEqual(['diagram.png']);
    expect(llm.requests[0]?.lastUserText).toContain('Reciprocal rank fusion adds one over sixty');
    expect(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).toContain(`source: raw/retrieval-fusion-explained.md (${base}/article.html)`);
  });

  it('ingests a PDF: the model reads its text with page markers', async () => {
    const root = await initWorkspace();
    await writeFile(
      path.join(root, 'raw/paper.pdf'),
      makePdf([['Sparse retrieval with BM25.'], ['Dense retrieval with embeddings.']]),
    );
    llm = await startFakeLlmServer(writeSourcePageScript('paper', 'Paper', 'raw/paper.pdf'));
    const result = await runCli(['ingest', 'raw/paper.pdf'], { cwd: root, env: llm.env('openai') });
    expect(result.code).toBe(0);
    const first = llm.requests[0]?.lastUserText ?? '';
    expect(first).toContain('<!-- page 1 -->');
    expect(first).toContain('Sparse retrieval with BM25.');
    expect(first).toContain('<!-- page 2 -->');
    expect(first).toContain('Dense retrieval with embeddings.');
  });
});

describe('progress and cost', () => {
  it('prints plain progress lines when stderr is not a TTY, and a summary with tokens', async () => {
    const root = await initWorkspace();
    await writeFile(path.join(root, 'raw/a.md'), '# A\n\nSome text about alpha.\n');
    llm = await startFakeLlmServer([
      { ...writeSourcePageScript('a', 'A', 'raw/a.md')[0]!, usage: { inputTokens: 1200, outputTokens: 300 } },
      { text: 'Done.', usage: { inputTokens: 1500, outputTokens: 20, cacheReadTokens: 1000 } },
    ]);
    const result = await runCli(['ingest', 'raw/a.md'], { cwd: root, env: llm.env('anthropic') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/turn 1\/40: write_file wiki\/sources\/a\.md/);
    expect(result.stderr).not.toContain('\r');
    expect(result.stdout).toMatch(/Tokens:\s+2\.7k input · 320 output · 1k cached/);
    expect(result.stdout).toMatch(/Cost:\s+~\$0\.0/);
    const status = JSON.parse((await runCli(['status', '--json'], { cwd: root })).stdout);
    expect(status.usage.runs).toBe(1);
    expect(status.usage.cost).toBeGreaterThan(0);
  });

  it('--quiet prints no progress', async () => {
    const root = await initWorkspace();
    await writeFile(path.join(root, 'raw/a.md'), '# A\n\nalpha\n');
    llm = await startFakeLlmServer(writeSourcePageScript('a', 'A', 'raw/a.md'));
    const result = await runCli(['--quiet', 'ingest', 'raw/a.md'], { cwd: root, env: llm.env('anthropic') });
    expect(result.code).toBe(0);
    expect(stderrBesideFactsWarning(result.stderr)).toBe('');
  });
});

describe('git auto-commit', () => {
  function git(cwd: string, ...args: string[]): string {
    return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
  }

  it('commits exactly the files the run changed, with the log entry as the message', async () => {
    const root = await initWorkspace();
    git(root, 'init', '-q');
    git(root, 'config', 'user.email', 'test@example.org');
    git(root, 'config', 'user.name', 'Test');
    await writeFile(path.join(root, 'raw/a.md'), '# A\n\nalpha\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'start');
    await writeFile(path.join(root, 'notes.txt'), 'unrelated, unstaged');
    expect((await runCli(['config', 'set', 'git.autoCommit', 'true'], { cwd: root })).code).toBe(0);
    git(root, 'commit', '-qam', 'enable auto-commit');

    llm = await startFakeLlmServer(writeSourcePageScript('a', 'A', 'raw/a.md'));
    const result = await runCli(['ingest', 'raw/a.md'], { cwd: root, env: llm.env('anthropic') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/git: committed 4 file\(s\)/);
    expect(git(root, 'log', '-1', '--format=%s')).toMatch(/^## \[\d{4}-\d{2}-\d{2}\] ingest \| A · run \S+$/);
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual([
      'wiki.sources.jsonl',
      'wiki/index.md',
      'wiki/log.md',
      'wiki/sources/a.md',
    ]);
    expect(git(root, 'status', '--porcelain')).toBe('?? notes.txt');
  });
});
