import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, patchConfig, read, writeStep } from './cron-fixtures.js';

/**
 * The smallest `contextTokens` accepted can run an ingest: a smaller one is refused up front,
 * naming the setting and the minimum, and at the minimum every request and its reply fit.
 */

const serve = fakeServers();
const MINIMUM = 13_000;

describe('contextTokens below what an ingest needs', () => {
  it('is refused when set, naming the setting and the minimum, and nothing is written', async () => {
    const root = await freshWorkspace();
    const before = await read(root, 'wiki.config.json');
    const refused = await runCli(['config', 'set', 'contextTokens', '8000'], { cwd: root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/contextTokens: must be at least 13000 tokens/);
    expect(await read(root, 'wiki.config.json')).toBe(before);
  });

  it('is refused before a run when the file holds it, naming the setting and the minimum', async () => {
    const root = await freshWorkspace();
    await patchConfig(root, { contextTokens: 8000 });
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha.\n');
    const server = await serve([writeStep('source', 'alpha'), { text: 'Done.' }]);
    const run = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/contextTokens: must be at least 13000/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('an ingest at the minimum contextTokens', () => {
  it.each(['anthropic', 'openai'] as const)('reads a long source in windows, writes two pages, and every request with its reply fits (%s wire)', async (api) => {
    const root = await freshWorkspace();
    await patchConfig(root, { contextTokens: MINIMUM });
    await writeFile(path.join(root, 'raw/alpha.md'), `# Alpha\n\n${'Alpha particles are helium nuclei. '.repeat(2000)}\n`);
    const body = 'Alpha particles are helium nuclei, and more. '.repeat(120);
    const server = await serve([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'raw/alpha.md' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'raw/alpha.md', offset: 20_000 } }] },
      writeStep('source', 'alpha', { body }),
      writeStep('concept', 'alpha-two', { body, sources: ['raw/alpha.md'] }),
      { text: 'Done.' },
    ]);
    const run = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env(api) });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests).toHaveLength(5);
    for (const request of server.requests) {
      const reply = Number((request.body as { max_tokens?: number; max_completion_tokens?: number }).max_tokens ?? (request.body as { max_completion_tokens?: number }).max_completion_tokens);
      expect(reply).toBeGreaterThan(0);
      expect(JSON.stringify(request.body).length / 4 + reply).toBeLessThanOrEqual(MINIMUM);
    }
  });
});
