import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startCli, waitFor } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, pageText, patchConfig, read, readJson } from './cron-fixtures.js';

/**
 * Issue 13, item 4, through the built CLI: SIGINT stops a tool call that would otherwise
 * never end (a search whose embeddings endpoint stalls), the run ends as interrupted with
 * its log entry, the lock is released and the process exits 130. And a 2,000-level path
 * from the model is answered at once.
 */

const serve = fakeServers();
const STALL = 'stall-the-embedder';

let embeddings: http.Server | undefined;
afterEach(async () => {
  embeddings?.closeAllConnections();
  await new Promise((resolve) => embeddings?.close(resolve) ?? resolve(undefined));
  embeddings = undefined;
});

/** An OpenAI-compatible /v1/embeddings endpoint that never answers a request containing STALL. */
async function startEmbeddings(): Promise<{ url: string; stalled: () => boolean }> {
  let stalled = false;
  embeddings = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const input = (JSON.parse(body) as { input: string[] }).input;
      if (input.some((text) => text.includes(STALL))) {
        stalled = true;
        return; // never answered
      }
      const data = input.map((text, index) => ({ index, embedding: Array.from({ length: 8 }, (_, d) => ((text.charCodeAt(d % text.length) || 1) % 7) + d + 1) }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data, model: 'test-embed', usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => embeddings?.listen(0, '127.0.0.1', resolve));
  const { port } = embeddings.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, stalled: () => stalled };
}

describe('SIGINT during a tool call', () => {
  it.each([
    { what: 'a search', call: { name: 'search_wiki', arguments: { query: `${STALL} okapi` } } },
    {
      what: 'a write (its search index update)',
      call: { name: 'write_file', arguments: { path: 'wiki/sources/alpha.md', content: pageText('source', 'alpha', { body: `Alpha. ${STALL}` }) } },
    },
  ])('stops $what stalled on the embeddings endpoint: exit 130, run interrupted, lock released', async ({ call }) => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nA source about alpha.\n');
    await writeFile(path.join(root, 'wiki/concepts/okapi.md'), pageText('concept', 'okapi'));
    const endpoint = await startEmbeddings();
    await patchConfig(root, { requestTimeoutMs: 600_000, search: { embedder: { kind: 'openai', baseUrl: endpoint.url, model: 'test-embed' } } });
    const server = await serve((request) => (request.toolResults.length > 0 ? { text: 'Done.' } : { toolCalls: [call] }));
    const run = startCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic'), timeoutMs: 280_000 });
    await waitFor(endpoint.stalled, 'the call to stall on the embeddings endpoint');
    expect(existsSync(path.join(root, '.wiki/lock'))).toBe(true);

    // The stalled request would only end at its 10-minute timeout, past this test's: exit 130
    // (not a kill by the harness) shows the interrupt stopped it.
    run.child.kill('SIGINT');
    const result = await run.done;

    expect(result.code).toBe(130);
    expect(result.stderr).toContain('SIGINT received');
    expect(existsSync(path.join(root, '.wiki/lock'))).toBe(false);
    expect(await read(root, 'wiki/log.md')).toMatch(/^## \[\d{4}-\d{2}-\d{2}\] ingest-interrupted \| (raw\/alpha\.md|alpha) · run \S+$/m);
    const runs = await readdir(path.join(root, '.wiki/history'));
    const record = await readJson<{ status: string }>(path.join(root, '.wiki/history', runs[0] ?? '', 'run.json'));
    expect(record.status).toBe('interrupted');
    // The model was not asked again: the stopped call's non-result never reached it.
    expect(server.requests).toHaveLength(1);
  });
});

describe('a 2,000-level path from the model', () => {
  it('is refused at once by every tool and the run goes on', async () => {
    const root = await freshWorkspace();
    // A page the question matches, so the query reaches the model (no match is answered without one).
    await writeFile(path.join(root, 'wiki/concepts/deep.md'), pageText('concept', 'deep'));
    const deep = `wiki/${'a/'.repeat(2000)}x.md`;
    const server = await serve((request) =>
      request.toolResults.length > 0
        ? { text: 'No such page.' }
        : {
            toolCalls: [
              { name: 'read_file', arguments: { path: deep } },
              { name: 'list_directory', arguments: { path: deep } },
            ],
          },
    );
    const result = await runCli(['query', 'what is deep?'], { cwd: root, env: server.env('anthropic')});
    expect(result.code).toBe(0);
    const results = server.requests[1]?.toolResults ?? [];
    expect(results).toHaveLength(2);
    for (const answer of results) expect(answer.content).toMatch(/2002 folder levels, over the 64 allowed/);
  });
});
