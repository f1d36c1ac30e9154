import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, writeStep } from './cron-fixtures.js';

/** HTML and URL ingest keep who wrote a page and when: in the text the model reads and in the saved raw file's frontmatter. */

const ARTICLE = `<!doctype html><html><head><title>Tide tables</title></head><body>
<nav><a href="/">Home</a></nav>
<article>
<h1>Tide tables</h1>
<p class="byline">By A. Researcher, 12 March 2024</p>
<p>Tide tables predict the height of the sea at a harbour for every hour of the year, from the harmonic constants measured there over many months.</p>
<p>Each constant is the amplitude and phase of one astronomical cycle, such as the principal lunar semidiurnal tide, and the prediction sums them all.</p>
<p>Harbour masters publish the tables a year ahead so that ships can plan their arrivals around high water.</p>
</article>
<footer>Copyright Example Press.</footer>
</body></html>`;

let model: FakeLlmServer | undefined;
let site: http.Server | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  if (site) await new Promise<void>((resolve) => site?.close(() => resolve()));
  site = undefined;
});

function requestsText(server: FakeLlmServer): string {
  return server.requests.map((request) => JSON.stringify(request.body)).join('\n');
}

describe('web sources keep their byline and date', () => {
  it('a local .html source: the model reads the author and the date', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/tides.html'), ARTICLE);
    model = await startFakeLlmServer([writeStep('source', 'tides', { sources: ['raw/tides.html'] }), { text: 'Ingested.' }]);
    const result = await runCli(['ingest', 'raw/tides.html'], { cwd: root, env: model.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(requestsText(model)).toContain('By A. Researcher · published 2024-03-12');
  });

  it('a URL: the saved raw file has author and published in its frontmatter, and the model reads them', async () => {
    const root = await freshWorkspace();
    site = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(ARTICLE);
    });
    await new Promise<void>((resolve) => site?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/tides`;
    model = await startFakeLlmServer([writeStep('source', 'tide-tables', { sources: ['raw/tide-tables.md'] }), { text: 'Ingested.' }]);
    const result = await runCli(['ingest', url, '--json'], { cwd: root, env: model.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    const raw = await readFile(path.join(root, 'raw/tide-tables.md'), 'utf8');
    expect(raw).toMatch(/^author: A\. Researcher$/m);
    expect(raw).toMatch(/^published: ["']?2024-03-12["']?$/m);
    expect(raw).toContain('By A. Researcher · published 2024-03-12');
    expect(requestsText(model)).toContain('A. Researcher');
  });
});
