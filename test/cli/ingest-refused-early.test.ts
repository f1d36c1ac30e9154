import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, runCli, tempDir } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, simpleIngest } from './cron-fixtures.js';

/** Exit 2 promises nothing was written: a run that cannot start finds out before it writes. */

const serve = fakeServers();

describe('wiki ingest with no model provider configured', () => {
  it('refuses a file from outside the workspace with exit 2 before copying it into raw/', async () => {
    const root = await freshWorkspace();
    const elsewhere = path.join(await tempDir('elsewhere-'), 'x.md');
    await writeFile(elsewhere, '# X\n\nA source from elsewhere.\n');
    const before = await hashTree(root);
    const result = await runCli(['ingest', elsewhere], { cwd: root });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/no model provider is configured/);
    expect(await hashTree(root)).toEqual(before);
  });

  it('refuses a changed source in raw/ the same way, writing nothing', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nNew.\n');
    const before = await hashTree(root);
    const result = await runCli(['ingest', 'raw/'], { cwd: root });
    expect(result.code, result.stderr).toBe(2);
    expect(await hashTree(root)).toEqual(before);
  });

  it('good work: sources already ingested need no model, so a clone without a key runs `wiki ingest raw/` fine', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha particles.\n');
    const server = await serve(simpleIngest('alpha'));
    expect((await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
    const result = await runCli(['ingest', 'raw/'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('raw/alpha.md is up to date');
  });
});
