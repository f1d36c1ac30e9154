import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { isPublicAddress, publicOrSameHost } from '../../src/sources/address-policy.js';
import { fetchUrlToRaw } from '../../src/sources/fetch-url.js';
import { pinnedGet, type GetImpl } from '../../src/sources/pinned-get.js';

const DOT_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('isPublicAddress', () => {
  const cases: Array<[string, boolean]> = [
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['127.8.9.10', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['not-an-ip', false],
  ];
  it.each(cases)('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('publicOrSameHost', () => {
  const resolve = async (hostname: string): Promise<string[]> =>
    ({ 'public.example': ['93.184.216.34'], 'rebind.example': ['93.184.216.34', '10.0.0.5'], 'metadata.example': ['169.254.169.254'] })[hostname] ?? [];
  const check = publicOrSameHost('http://127.0.0.1:8080/page', resolve);
  const cases: Array<{ url: string; allowed: boolean }> = [
    { url: 'http://127.0.0.1:8080/img.png', allowed: true },
    { url: 'http://127.0.0.1:8081/img.png', allowed: false },
    { url: 'http://localhost:8080/img.png', allowed: false },
    { url: 'http://public.example/img.png', allowed: true },
    { url: 'http://rebind.example/img.png', allowed: false },
    { url: 'http://metadata.example/latest', allowed: false },
    { url: 'http://169.254.169.254/latest/meta-data/', allowed: false },
    { url: 'http://10.0.0.1/x.png', allowed: false },
    { url: 'http://[::1]:8080/x.png', allowed: false },
    { url: 'http://unknown.example/x.png', allowed: false },
    { url: 'ftp://public.example/x.png', allowed: false },
  ];
  it.each(cases)('$url → allowed: $allowed', async ({ url, allowed }) => {
    const outcome = check(new URL(url));
    if (allowed) await expect(outcome).resolves.toEqual(expect.any(String));
    else await expect(outcome).rejects.toThrow(InputError);
  });
});

/** Two loopback servers: the user's page and a stranger on another port that must never be asked. */
const strangerRequests: string[] = [];
const stranger = http.createServer((request, response) => {
  strangerRequests.push(request.url ?? '');
  response.writeHead(200, { 'content-type': 'image/png' });
  response.end(DOT_PNG);
});
let strangerBase = '';

const article = (images: string[]): string => `<!doctype html><html><head><title>Images everywhere</title></head><body><article>
<h1>Images everywhere</h1>
<p>The Transformer relies entirely on attention to draw global dependencies between input and output, dispensing with recurrence and convolutions.</p>
<p>${images.map((src, i) => `<img src="${src}" alt="image ${i}">`).join('')} The encoder and decoder are stacks of identical layers.</p>
<p>Residual connections and layer normalisation wrap every sub-layer, so the model trains stably at depth.</p>
</article></body></html>`;

const page = http.createServer((request, response) => {
  const redirect = (location: string): void => {
    response.writeHead(302, { location });
    response.end();
  };
  switch (request.url) {
    case '/article':
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end(
        article([
          '/img/dot.png',
          '/img/to-own-dot',
          `${strangerBase}/img/dot.png`,
          strangerBase.replace('127.0.0.1', 'localhost') + '/img/other.png',
          '/img/to-stranger',
          '/img/to-metadata',
          '/img/to-private',
        ]),
      );
    case '/img/dot.png':
      response.writeHead(200, { 'content-type': 'image/png' });
      return response.end(DOT_PNG);
    case '/img/to-own-dot':
      return redirect('/img/dot.png');
    case '/img/to-stranger':
      return redirect(`${strangerBase}/img/redirected.png`);
    case '/img/to-metadata':
      return redirect('http://169.254.169.254/latest/meta-data/');
    case '/img/to-private':
      return redirect('http://10.0.0.1/x.png');
    case '/to-stranger':
      return redirect(`${strangerBase}/article`);
    case '/to-metadata':
      return redirect('http://169.254.169.254/latest/meta-data/iam');
    case '/loop':
      return redirect('/loop');
    default:
      response.writeHead(404);
      return response.end();
  }
});
let pageBase = '';
let root = '';

beforeAll(async () => {
  for (const server of [stranger, page]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  strangerBase = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
  pageBase = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const server of [stranger, page]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wiki-address-'));
  strangerRequests.length = 0;
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('URL ingest follows only what it should', () => {
  it('saves images from the page’s own host and refuses every other loopback, link-local or private address, redirects included', async () => {
    const result = await fetchUrlToRaw(`${pageBase}/article`, root);
    expect(result.assets).toEqual(['raw/assets/dot.png', 'raw/assets/to-own-dot.png']);
    const refused = result.warnings.filter((warning) => warning.includes('only the page\'s own host'));
    expect(refused).toHaveLength(5);
    expect(result.warnings.join('\n')).toContain('a non-public address (169.254.169.254)');
    expect(result.warnings.join('\n')).toContain('a non-public address (10.0.0.1)');
    expect(strangerRequests).toEqual([]);
    expect((await readdir(path.join(root, 'raw/assets'))).sort()).toEqual(['dot.png', 'to-own-dot.png']);
  });

  const pageCases = [
    { name: 'a redirect of the page to another loopback port', path: '/to-stranger', message: 'a non-public address (127.0.0.1)' },
    { name: 'a redirect of the page to a link-local address', path: '/to-metadata', message: 'a non-public address (169.254.169.254)' },
    { name: 'endless redirects', path: '/loop', message: 'more than 5 redirects' },
  ];
  it.each(pageCases)('refuses $name, saving nothing', async ({ path: where, message }) => {
    await expect(fetchUrlToRaw(`${pageBase}${where}`, root)).rejects.toThrow(message);
    expect(strangerRequests).toEqual([]);
    expect(await readdir(root)).toEqual([]);
  });
});

describe('DNS rebinding: the fetch connects to the address the check approved', () => {
  it('the check answers with the address it judged, for another host and for the page’s own', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    let own = 0;
    const check = publicOrSameHost('http://page.test/article', async (hostname) => (hostname === 'page.test' ? [`192.168.0.${++own}`] : (answers.shift() ?? [])));
    expect(await check(new URL('http://rebind.test/x.png'))).toBe('93.184.216.34');
    // The same name now answers loopback: refused, never connected to.
    await expect(check(new URL('http://rebind.test/y.png'))).rejects.toThrow('a non-public address (127.0.0.1)');
    // The user's own host may be private, but it stays where it first was.
    expect(await check(new URL('http://page.test/article'))).toBe('192.168.0.1');
    expect(await check(new URL('http://page.test/img.png'))).toBe('192.168.0.1');
    expect(own).toBe(1);
  });

  it('the transport connects to the pinned address, not to what the name resolves to', async () => {
    // `.invalid` never resolves: reaching the server proves no second lookup was made.
    const port = (stranger.address() as AddressInfo).port;
    const response = await pinnedGet(new URL(`http://rebound.invalid:${port}/img/pinned.png`), { signal: AbortSignal.timeout(60_000), headers: {}, address: '127.0.0.1' });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(DOT_PNG);
    expect(strangerRequests).toEqual(['/img/pinned.png']);
  });

  it('an image whose name the check saw as public is fetched from that address, never from the loopback the system resolver gives', async () => {
    const seen: Array<{ url: string; address: string | undefined }> = [];
    // The system resolves `localhost` to loopback; the check is told it is public (a rebinding name).
    const spy: GetImpl = (url, init) => {
      seen.push({ url: url.href, address: init.address });
      return url.hostname === 'localhost' ? Promise.reject(Object.assign(new Error('unreachable in a test'), { code: 'ECONNREFUSED' })) : pinnedGet(url, init);
    };
    const result = await fetchUrlToRaw(`${pageBase}/article`, root, { getImpl: spy, resolve: async (hostname) => (hostname === 'localhost' ? ['93.184.216.34'] : []) });
    const rebound = seen.filter((request) => new URL(request.url).hostname === 'localhost');
    expect(rebound.length).toBeGreaterThan(0);
    for (const request of rebound) expect(request.address).toBe('93.184.216.34');
    expect(strangerRequests).toEqual([]);
    expect(result.assets).toEqual(['raw/assets/dot.png', 'raw/assets/to-own-dot.png']);
  });
});
