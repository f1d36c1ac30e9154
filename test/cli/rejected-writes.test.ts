import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, writeStep } from './cron-fixtures.js';

/**
 * A refused write the model sends again, fixed, is not reported as a loss: the summary and
 * the log say it was accepted on a later turn (a played run's log listed six "rejected"
 * writes that were all rewritten the next turn); one never fixed is listed with its reason.
 */

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const BROKEN = { body: 'Notes on the harbour, see [[tide-table]].' };

describe('rejected writes in the run summary and the log', () => {
  it('a write refused and then sent again, fixed, is counted as rewritten, not listed as a problem', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw', 'harbour.md'), '# Harbour\n\nThe harbour opens at dawn.\n');
    server = await startFakeLlmServer([writeStep('source', 'harbour', BROKEN), writeStep('source', 'harbour'), { text: 'Ingested raw/harbour.md.' }]);
    const result = await runCli(['ingest', 'raw/harbour.md'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain('1 write(s) rejected, each followed by an accepted write of the same page');
    expect(output).not.toMatch(/broken-link/);
    expect(await readFile(path.join(root, 'wiki', 'log.md'), 'utf8')).toContain('rejected writes: 1 (1 followed by an accepted write of the same page)');
  });

  it('a refused write never fixed is listed with its reason', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw', 'harbour.md'), '# Harbour\n\nThe harbour opens at dawn.\n');
    server = await startFakeLlmServer([writeStep('source', 'harbour'), writeStep('concept', 'dawn', BROKEN), { text: 'Ingested raw/harbour.md.' }]);
    const result = await runCli(['ingest', 'raw/harbour.md'], { cwd: root, env: server.env('anthropic') });
    const output = result.stdout + result.stderr;
    expect(output).toMatch(/1 write\(s\) rejected:\n\s+wiki\/concepts\/dawn\.md: /);
    expect(await readFile(path.join(root, 'wiki', 'log.md'), 'utf8')).toMatch(/rejected writes: 1 · /);
  });
});
