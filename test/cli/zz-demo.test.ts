import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, pagePath, pageText, simpleIngest, writeStep } from './cron-fixtures.js';

const serve = fakeServers();
it('demo', async () => {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is a dataset.\n');
  let server = await serve(simpleIngest('beta', { body: 'Beta is a dataset.' }));
  await runCli(['ingest', 'raw/beta.md'], { cwd: root, env: server.env('anthropic') });
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha builds on gamma and beta.\n');
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is a dataset of images.\n');
  server = await serve([
    { toolCalls: [{ name: 'write_file', arguments: { path: pagePath('concept', 'gamma'), content: pageText('concept', 'gamma', { sources: ['raw/alpha.md'], body: 'Gamma is a measure of spread.' }) } }] },
    writeStep('source', 'alpha', { refs: ['gamma'], body: 'Alpha builds on [[gamma]] and [[beta]].' }),
    { text: 'Ingested raw/alpha.md.' },
    ...simpleIngest('beta', { body: 'Beta is a dataset of images, collected in 2024.' }),
  ]);
  const r = await runCli(['ingest', 'raw/', '--review'], { cwd: root, env: server.env('anthropic') });
  await writeFile('/tmp/review-root', `${root}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
}, 60000);
