import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INDEX_FILE, openSearchIndex, searchDirectory } from '../../../../src/search/index.js';
import { prefixesFor } from '../../../../src/search/lanes/semantic/openai-embedder.js';
import { TOPIC_PAGES, configWith, workspaceWith } from '../../helpers.js';

/**
 * A local stand-in for an OpenAI-compatible /v1/embeddings endpoint (as Ollama or
 * llama.cpp serve it), so the real `openai` SDK runs against real HTTP.
 */
const TOPICS = [
  ['telescope', 'orbit', 'galaxies', 'infrared', 'universe', 'webb', 'hubble', 'space'],
  ['bread', 'dough', 'oven', 'yeast', 'bake', 'sourdough', 'flour', 'cakes'],
  ['attention', 'heads', 'softmax', 'transformers', 'query', 'key'],
];

function embed(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/);
  const vector = TOPICS.map((topic) => words.filter((w) => topic.includes(w)).length);
  return [...vector, 0.01];
}

interface Recorded {
  inputs: string[];
  model: string;
}

let server: Server;
let baseUrl: string;
let requests: Recorded[] = [];
let failing = false;

function handle(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404).end();
      return;
    }
    const parsed = JSON.parse(body) as { input: string[] | string; model: string; encoding_format?: string };
    const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
    requests.push({ inputs, model: parsed.model });
    if (failing) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'model failed to load', type: 'server_error' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        model: parsed.model,
        data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: embed(input) })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      }),
    );
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
  failing = false;
});

const config = (batchSize: number) =>
  configWith({ embedder: { kind: 'openai', baseUrl, model: 'nomic-embed-text', batchSize } }, { maxRetries: 0 });

describe('OpenAI-compatible embedder (local server, real SDK)', () => {
  it('embeds pages in batches with the model’s prefixes and ranks by meaning', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await openSearchIndex(ws.root, ws.schema, config(2), { env: {} });
    const pages = Object.keys(TOPIC_PAGES).length;
    expect(requests).toHaveLength(Math.ceil(pages / 2));
    expect(requests.every((r) => r.model === 'nomic-embed-text' && r.inputs.length <= 2)).toBe(true);
    expect(requests.flatMap((r) => r.inputs).every((input) => input.startsWith('search_document: '))).toBe(true);

    const response = await index.search('space telescope');
    expect(response.lanes.semantic).toBe('ok');
    expect(requests.at(-1)?.inputs).toEqual(['search_query: space telescope']);
    const semanticTop = response.results.filter((r) => r.lanes.semantic !== undefined).sort((a, b) => (a.lanes.semantic ?? 0) - (b.lanes.semantic ?? 0));
    expect(['hubble', 'jwst']).toContain(semanticTop[0]?.key);
    expect(index.info().embedder).toBe(`nomic-embed-text at ${baseUrl}`);
    await index.close();
  });

  it('reuses cached embeddings when the index is rebuilt', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const first = await openSearchIndex(ws.root, ws.schema, config(4), { env: {} });
    await first.close();
    const cacheFiles = await readdir(path.join(searchDirectory(ws.root), 'embeddings'));
    expect(cacheFiles).toHaveLength(1);
    await rm(path.join(searchDirectory(ws.root), INDEX_FILE));
    requests = [];
    const second = await openSearchIndex(ws.root, ws.schema, config(4), { env: {} });
    expect(requests).toHaveLength(0);
    expect((await second.search('bread oven')).lanes.semantic).toBe('ok');
    expect(requests).toHaveLength(1);
    await second.close();
  });

  it('reports the lane failed on an HTTP error, still answers, and recovers', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    failing = true;
    const index = await openSearchIndex(ws.root, ws.schema, config(8), { env: {}, rescanAfterMs: 0 });
    const response = await index.search('sourdough');
    expect(response.lanes.semantic).toMatch(/^failed: .*500/);
    expect(response.lanes.lexical).toBe('ok');
    expect(response.results[0]?.key).toBe('sourdough');
    expect(response.results.every((r) => r.lanes.semantic === undefined)).toBe(true);
    expect(index.info().lanes.semantic).toMatch(/^failed: /);

    failing = false;
    const recovered = await index.search('sourdough');
    expect(recovered.lanes.semantic).toBe('ok');
    expect(recovered.results[0]?.lanes.semantic).toBeDefined();
    await index.close();
  });

  it('is skipped, not failed, when no endpoint is configured', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await openSearchIndex(ws.root, ws.schema, configWith({ embedder: { kind: 'openai' } }), { env: {} });
    expect((await index.search('telescope')).lanes.semantic).toMatch(/^skipped: .*OPENAI_API_KEY/);
    await index.close();
  });
});

describe('prefixesFor', () => {
  it.each([
    ['nomic-embed-text', 'search_query: ', 'search_document: '],
    ['nomic-embed-text:v1.5', 'search_query: ', 'search_document: '],
    ['intfloat/e5-large-v2', 'query: ', 'passage: '],
    ['multilingual-e5-small', 'query: ', 'passage: '],
    ['mxbai-embed-large', 'Represent this sentence for searching relevant passages: ', ''],
    ['text-embedding-3-small', '', ''],
  ])('%s', (model, query, document) => {
    expect(prefixesFor(model)).toEqual({ query, document });
  });
});
