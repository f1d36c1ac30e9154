import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.js';
import { freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * A reader that goes away (`wiki … | head -1`) must not kill the command halfway: the rest
 * of the output is dropped, the work is finished, the exit code is the command's own, and
 * no stack trace is printed. The pipe is closed before the process even starts, so every
 * write to it fails.
 */
describe('the command outlives a closed output pipe', () => {
  it('help text into a closed pipe: exit 0, no stack trace', async () => {
    const cli = startCli(['lint', '--help']);
    cli.child.stdout.destroy();
    const result = await cli.done;
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(result.code).toBe(0);
  });

  it('lint --fix into a closed pipe: the same repairs made and logged, the same exit code as with a reader', async () => {
    const outcome = async (closePipe: boolean): Promise<{ code: number; stderr: string; page: string; log: string }> => {
      const root = await freshWorkspace();
      const file = 'wiki/concepts/small.md';
      await writeFile(path.join(root, file), pageText('concept', 'small').replace(/^created: .*\n|^updated: .*\n/gm, ''));
      const cli = startCli(['lint', '--fix', '--no-llm'], { cwd: root });
      if (closePipe) cli.child.stdout.destroy();
      const { code, stderr } = await cli.done;
      return { code, stderr, page: await readFile(path.join(root, file), 'utf8'), log: await readFile(path.join(root, 'wiki/log.md'), 'utf8') };
    };
    const [read, unread] = [await outcome(false), await outcome(true)];
    expect(unread.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(unread.code).toBe(read.code);
    expect(unread.page).toBe(read.page);
    expect(unread.page).toMatch(/^created: /m);
    expect(unread.log.replace(/run:? \S+/g, '')).toBe(read.log.replace(/run:? \S+/g, ''));
    expect(unread.log).toMatch(/\| --fix applied \d+ repairs?/);
  });
});
