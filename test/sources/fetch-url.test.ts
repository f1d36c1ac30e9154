import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { extractText } from '../../src/sources/extract.js';
import { fetchUrlToRaw, isUrl } from '../../src/sources/fetch-url.js';
import { makePdf } from '../helpers/pdf-fixture.js';

// A 1×1 transparent PNG.
const DOT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const BIG_PNG = Buffer.concat([DOT_PNG, Buffer.alloc(4096, 7)]);
const PAPER_PDF = makePdf([['Attention', 'Self-attention everywhere.'], ['Results']], { title: 'Attention paper' });
const UNTITLED_PDF = makePdf([['Quarterly numbers']]);
const NOW = new Date(2026, 2, 1, 12, 0, 0);

let articleVersion = 1;
let endlessBodyClosed = false;

function articleHtml(): string {
  return `<!doctype html><html><head><title>Attention Is All You Need</title></head><body>
<nav><a href="/">Home</a> <a href="/subscribe">Subscribe to our newsletter</a></nav>
<article>
<h1>Attention Is All You Need</h1>
<p>The Transformer relies entirely on attention to draw global dependencies between input and output, dispensing with recurrence and convolutions. Version ${articleVersion}.</p>
<h2>Architecture</h2>
<p><img src="img/dot.png" alt="Dot"> The encoder and decoder are stacks of identical layers, each with multi-head self-attention and a feed-forward network. See <a href="/other">the other page</a>.</p>
<p><img src="/img/dot.png" alt="Same dot"><img src="img/big.png" alt="Big"><img src="img/missing.png" alt="Missing"><img src="img/not-an-image" alt="Wrong"><img src="data:image/png;base64,${DOT_PNG.toString('base64')}" alt="Inline"></p>
<p>Residual connections and layer normalisation wrap every sub-layer, so the model trains stably at depth.</p>
</article>
<footer>Copyright Example Press. Terms of use.</footer>
</body></html>`;
}

const server = http.createServer((request, response) => {
  const send = (status: number, type: string, body: string | Buffer): void => {
    response.writeHead(status, { 'content-type': type });
    response.end(body);
  };
  switch (request.url) {
    case '/article':
      return send(200, 'text/html; charset=utf-8', articleHtml());
    case '/old-address':
      response.writeHead(301, { location: '/article' });
      return response.end();
    case '/img/dot.png':
      return send(200, 'image/png', DOT_PNG);
    case '/img/big.png':
      return send(200, 'image/png', BIG_PNG);
    case '/img/not-an-image':
      return send(200, 'text/html', '<p>nope</p>');
    case '/papers/attention.pdf':
      return send(200, 'application/pdf', Buffer.from(PAPER_PDF));
    case '/files/report_2024.pdf':
      return send(200, 'application/octet-stream', Buffer.from(UNTITLED_PDF));
    case '/notes.txt':
      return send(200, 'text/plain; charset=utf-8', '# Reading notes\n\nAttention is cheap to parallelise — 東京.\n');
    case '/photo.png':
      return send(200, 'image/png', DOT_PNG);
    case '/archive.bin':
      return send(200, 'application/octet-stream', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]));
    case '/broken':
      return send(500, 'text/plain', 'boom');
    case '/slow-headers':
      return; // never answers
    case '/slow-body':
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<html><body><p>Loading');
      return; // never finishes
    case '/declared-huge':
      response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) });
      response.write('<html>');
      return;
    case '/endless': {
      response.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const pump = (): void => {
        while (!response.destroyed && response.write(chunk)) {
          /* keep writing until the socket pushes back */
        }
      };
      response.on('drain', pump);
      response.on('close', () => {
        endlessBodyClosed = true;
      });
      return pump();
    }
    default:
      return send(404, 'text/html', '<h1>Not here</h1>');
  }
});

let base: string;
let root: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wiki-fetch-'));
  articleVersion = 1;
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

describe('fetchUrlToRaw: HTML', () => {
  it('saves the article as markdown with frontmatter, small images under raw/assets/ and links rewritten', async () => {
    const result = await fetchUrlToRaw(`${base}/article`, root, { now: NOW, maxAssetBytes: 1024 });
    expect(result.rawPath).toBe('raw/attention-is-all-you-need.md');
    expect(result.title).toBe('Attention Is All You Need');
    expect(result.assets).toEqual(['raw/assets/dot.png']);
    expect(result.reused).toBe(false);
    expect(result.warnings).toEqual([
      '1 inline (data:) image left out',
      `image ${base}/img/big.png not saved: larger than 1 KB`,
      `image ${base}/img/missing.png not saved: HTTP 404`,
      `image ${base}/img/not-an-image not saved: not an image (text/html)`,
    ]);
    expect(await filesUnder(root)).toEqual(['raw/assets/dot.png', 'raw/attention-is-all-you-need.md']);
    expect(await readFile(path.join(root, 'raw/assets/dot.png'))).toEqual(DOT_PNG);

    const markdown = await readFile(path.join(root, result.rawPath), 'utf8');
    expect(markdown.startsWith(`---\nurl: ${base}/article\ntitle: Attention Is All You Need\nfetched: 2026-03-01\n---\n\n# Attention Is All You Need\n`)).toBe(true);
    expect(markdown).toContain('## Architecture');
    expect(markdown).toContain('![Dot](assets/dot.png)');
    expect(markdown).toContain('![Same dot](assets/dot.png)');
    expect(markdown).toContain(`![Big](${base}/img/big.png)`);
    expect(markdown).toContain(`[the other page](${base}/other)`);
    expect(markdown).not.toContain('newsletter');
    expect(markdown).not.toContain('Terms of use');
    expect(markdown).not.toContain('data:image');
  });

  it('reuses the saved file when the page is unchanged, and never overwrites a different one', async () => {
    const first = await fetchUrlToRaw(`${base}/article`, root, { now: NOW });
    const again = await fetchUrlToRaw(`${base}/article`, root, { now: new Date(2026, 2, 9) });
    expect(again).toMatchObject({ rawPath: first.rawPath, reused: true, assets: ['raw/assets/dot.png', 'raw/assets/big.png'] });
    const unchanged = await readFile(path.join(root, first.rawPath), 'utf8');
    expect(unchanged).toContain('fetched: 2026-03-01');

    articleVersion = 2;
    const changed = await fetchUrlToRaw(`${base}/article`, root, { now: NOW });
    expect(changed).toMatchObject({ rawPath: 'raw/attention-is-all-you-need-2.md', reused: false });
    expect(await readFile(path.join(root, first.rawPath), 'utf8')).toBe(unchanged);
    expect(await filesUnder(root)).toEqual([
      'raw/assets/big.png',
      'raw/assets/dot.png',
      'raw/attention-is-all-you-need-2.md',
      'raw/attention-is-all-you-need.md',
    ]);
  });

  it('follows redirects and records where the page ended up', async () => {
    const result = await fetchUrlToRaw(`${base}/old-address`, root, { now: NOW });
    const markdown = await readFile(path.join(root, result.rawPath), 'utf8');
    expect(markdown).toContain(`url: ${base}/old-address\n`);
    expect(markdown).toContain(`final_url: ${base}/article\n`);
    expect(markdown).toContain('![Dot](assets/dot.png)');
  });
});

describe('fetchUrlToRaw: PDF and text', () => {
  it('saves a PDF as the .pdf itself, named from its title, readable page by page', async () => {
    const result = await fetchUrlToRaw(`${base}/papers/attention.pdf`, root, { now: NOW });
    expect(result).toEqual({ rawPath: 'raw/attention-paper.pdf', title: 'Attention paper', assets: [], warnings: [], reused: false });
    expect(await filesUnder(root)).toEqual(['raw/attention-paper.pdf']);
    const saved = await readFile(path.join(root, result.rawPath));
    expect(new Uint8Array(saved)).toEqual(PAPER_PDF);
    const text = await extractText(result.rawPath, saved);
    expect(text.text).toContain('<!-- page 2 -->\nResults');
  });

  it('accepts a PDF served as octet-stream, named from the URL when it has no title', async () => {
    const result = await fetchUrlToRaw(`${base}/files/report_2024.pdf`, root);
    expect(result).toMatchObject({ rawPath: 'raw/report-2024.pdf', title: 'report 2024' });
  });

  it('saves plain text as markdown with frontmatter, titled by its first heading', async () => {
    const result = await fetchUrlToRaw(`${base}/notes.txt`, root, { now: NOW });
    expect(result).toMatchObject({ rawPath: 'raw/reading-notes.md', title: 'Reading notes', assets: [], warnings: [] });
    expect(await readFile(path.join(root, result.rawPath), 'utf8')).toBe(
      `---\nurl: ${base}/notes.txt\ntitle: Reading notes\nfetched: 2026-03-01\n---\n\n# Reading notes\n\nAttention is cheap to parallelise — 東京.\n`,
    );
  });
});

describe('fetchUrlToRaw: refusals leave raw/ untouched', () => {
  it.each([
    ['a 404', '/nowhere', {}, /\/nowhere: HTTP 404 Not Found; nothing was saved$/],
    ['a server error', '/broken', {}, /\/broken: HTTP 500 Internal Server Error/],
    ['a server that never answers', '/slow-headers', { timeoutMs: 300 }, /\/slow-headers did not finish loading within 0\.3 s/],
    ['a body that never ends', '/slow-body', { timeoutMs: 300 }, /\/slow-body did not finish loading within 0\.3 s/],
    ['an endless body', '/endless', { maxBytes: 64 * 1024 }, /\/endless is larger than the 64 KB size cap; nothing was saved/],
    ['a declared oversize body', '/declared-huge', { maxBytes: 1024 * 1024 }, /\/declared-huge is larger than the 1 MB size cap/],
    ['an image', '/photo.png', {}, /\/photo\.png is not a text, HTML or PDF page \(it is image\/png\)/],
    ['a binary download', '/archive.bin', {}, /\/archive\.bin is not a text, HTML or PDF page \(it is application\/octet-stream\)/],
  ])('refuses %s', async (_name, route, options, message) => {
    const failure = fetchUrlToRaw(`${base}${route}`, root, options);
    await expect(failure).rejects.toBeInstanceOf(InputError);
    await expect(failure).rejects.toThrow(message);
    expect(await readdir(root)).toEqual([]);
  });

  it('stops reading an endless body at the cap instead of buffering it', async () => {
    endlessBodyClosed = false;
    await expect(fetchUrlToRaw(`${base}/endless`, root, { maxBytes: 64 * 1024 })).rejects.toThrow(/size cap/);
    await expect.poll(() => endlessBodyClosed).toBe(true);
  });

  it('reports a refused connection', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchUrlToRaw(`http://127.0.0.1:${port}/x`, root)).rejects.toThrow(`http://127.0.0.1:${port}/x: connection refused`);
  });

  it.each(['ftp://example.org/file.txt', 'file:///etc/passwd', 'raw/notes.md', 'http//missing-colon'])('refuses %s as not an http(s) URL', async (url) => {
    await expect(fetchUrlToRaw(url, root)).rejects.toThrow(new InputError(`${url} is not an http or https URL`));
  });
});

describe('isUrl', () => {
  it.each([
    ['https://example.org/a?b=c', true],
    ['HTTP://EXAMPLE.ORG', true],
    ['http://127.0.0.1:8080/x', true],
    ['ftp://example.org', false],
    ['raw/page.html', false],
    ['https://', false],
    ['example.org', false],
  ])('%s → %s', (arg, expected) => {
    expect(isUrl(arg)).toBe(expected);
  });
});
