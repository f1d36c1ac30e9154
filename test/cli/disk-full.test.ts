import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, pageText, read, tempFilesUnder, writeStep } from './cron-fixtures.js';

/**
 * A disk that fills up in the middle of an ingest: the command says "disk full" with the
 * path (never "an unexpected failure"), leaves no temp file, and `wiki undo` restores.
 * The full disk is simulated inside the built CLI by a preload (test/helpers/disk-full.cjs).
 */
const serve = fakeServers();
const PRELOAD = path.join(REPO_ROOT, 'test/helpers/disk-full.cjs');

describe.each(['anthropic', 'openai'] as const)('ENOSPC mid-ingest (%s)', (api) => {
  it('says disk full with the path, leaves no temp files, and undo restores the page it had changed', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nA source.\n');
    await writeFile(path.join(root, 'wiki/concepts/kept.md'), pageText('concept', 'kept', { sources: ['raw/alpha.md'], body: 'Before the run.' }));
    const server = await serve([
      writeStep('concept', 'kept', { sources: ['raw/alpha.md'], body: 'Changed by the run.' }),
      writeStep('concept', 'overflow', { sources: ['raw/alpha.md'] }),
      writeStep('source', 'alpha'),
      { text: 'Done.' },
    ]);
    const env = { ...server.env(api), NODE_OPTIONS: `--require ${PRELOAD}`, WIKI_TEST_DISK_FULL_AT: '.overflow.md.' };
    const result = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error: disk full: could not write \S+ — free some space/);
    expect(result.stderr).not.toMatch(/unexpected failure/);
    // The model was told too, naming the page.
    expect(server.requests[2]?.toolResults[0]?.content).toContain('disk full: could not write wiki/concepts/overflow.md');
    expect(await tempFilesUnder(root)).toEqual([]);
    expect(await read(root, 'wiki/concepts/kept.md')).toContain('Changed by the run.');

    const undone = await runCli(['undo', '--yes'], { cwd: root });
    expect(undone.code).toBe(0);
    expect(await read(root, 'wiki/concepts/kept.md')).toContain('Before the run.');
    expect(await tempFilesUnder(root)).toEqual([]);
  });
});
