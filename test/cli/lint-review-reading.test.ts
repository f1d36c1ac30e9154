import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { firstUserText } from '../helpers/fake-llm-record.js';
import { fakeServers, freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * The lint review's first message says what to read within a stated budget: the pages its
 * findings are on, with the read_file offsets of just their lines, and the most linked
 * pages; `--fix` is told to fix a sentence with write_file edits, not a whole-page rewrite.
 */

const serve = fakeServers();

async function workspace(): Promise<string> {
  const root = await freshWorkspace();
  const files: Record<string, string> = {
    'raw/notes.md': '# Notes\n\nThe harbour opens at dawn.\n',
    'wiki/sources/notes.md': pageText('source', 'notes', { body: 'Notes on the [[harbour]].' }),
    'wiki/concepts/harbour.md': pageText('concept', 'harbour', { sources: ['raw/notes.md'], body: 'The harbour opens at dawn, see [[tide-table]].' }),
    'wiki/concepts/boats.md': pageText('concept', 'boats', { sources: ['raw/notes.md'], body: 'Boats use the [[harbour]].' }),
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

describe('what the lint review is told to read', () => {
  it.each(['anthropic', 'openai'] as const)('the read-only review names the pages with findings, and the offsets of their lines, within a budget (%s)', async (api) => {
    const root = await workspace();
    const server = await serve([{ text: 'No further findings.' }]);
    const result = await runCli(['lint', '--json'], { cwd: root, env: server.env(api) });
    expect(server.problems).toEqual([]);
    const first = firstUserText(server.requests[0]!.body);
    expect(first).toMatch(/# What to read\n\nRead at most about 40,000 characters of pages for this review \(the 3 pages hold [\d,]+\)/);
    expect(first).toMatch(/Pages with findings — read only the lines a finding names:\n- wiki\/concepts\/harbour\.md \(2 findings; line 10: read_file wiki\/concepts\/harbour\.md offset \d+ limit \d+ \(lines 8–11\)\)/);
    expect(first).toMatch(/- wiki\/concepts\/boats\.md \(3 findings\)/);
    expect(first).toContain('Do not read whole pages you need not');
    expect(result.code).toBe(1);
  });

  it('--fix is told to fix a sentence with write_file edits', async () => {
    const root = await workspace();
    const server = await serve([{ text: 'Nothing fixed.' }]);
    await runCli(['lint', '--fix', '--json'], { cwd: root, env: server.env('anthropic') });
    const first = firstUserText(server.requests[0]!.body);
    expect(first).toContain('a sentence, a citation or a link with write_file edits, never by rewriting the whole page');
    expect(first).toContain('# What to read');
  });
});
