import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, pagePath, pageText } from './cron-fixtures.js';

/**
 * The owner's frontmatter fields and lines hold across any number of model writes and runs
 * (issue 28, items 2, 3 and 10), through the built CLI and both wire formats: a model that
 * first keeps a field and then drops it, sets `usage_mode`/`visibility`, or wraps the
 * owner's line in an HTML comment is refused; keeping them is accepted.
 */
const serve = fakeServers();
const write = (p: string, content: string): ScriptStep => ({ toolCalls: [{ name: 'write_file', arguments: { path: p, content } }] });
const OWNER_LINE = 'OWNER: measured on our own cluster, keep this paragraph.';
const ALPHA = pagePath('source', 'alpha');
const withFields = (text: string, fields: string): string => text.replace('created:', `${fields}\ncreated:`);
const alpha = (fields: string, body: string): string => withFields(pageText('source', 'alpha', { body: `Zanzibar qualia of alpha.\n\n${body}` }), fields);

describe.each(['anthropic', 'openai'] as const)('owner-set fields and lines (%s wire format)', (wire) => {
  it('stay set and visible across writes and runs; the model cannot set who sees a page', async () => {
    const root = await freshWorkspace();
    for (const name of ['alpha', 'beta', 'gamma']) await writeFile(path.join(root, `raw/${name}.md`), `# ${name}\n\nText of ${name}.\n`);
    const run = async (source: string, script: ScriptStep[]) => {
      const server = await serve(script);
      const result = await runCli(['ingest', `raw/${source}.md`, '--json'], { cwd: root, env: server.env(wire) });
      expect(server.problems).toEqual([]);
      expect(result.code).toBe(0);
      return server.requests.slice(1).map((request) => request.toolResults[0]);
    };

    expect((await run('alpha', [write(ALPHA, alpha('', 'Notes.')), { text: 'Done.' }]))[0]?.isError).toBe(false);
    // The owner hides the page from every list and search, signs it and adds a line.
    const owned = (await readFile(path.join(root, ALPHA), 'utf8')).replace('created:', 'usage_mode: never\nreviewed_by: dana\ncreated:').replace('Notes.', `Notes.\n\n${OWNER_LINE}`);
    await writeFile(path.join(root, ALPHA), owned);

    const ownerFields = 'usage_mode: never\nreviewed_by: dana';
    const second = await run('beta', [
      write(ALPHA, alpha(ownerFields, `Notes, updated.\n\n${OWNER_LINE}`)),
      write(ALPHA, alpha('', `Notes, updated.\n\n${OWNER_LINE}`)),
      write(ALPHA, alpha(ownerFields, `Notes, updated.\n\n<!--\n${OWNER_LINE}\n-->`)),
      write(pagePath('source', 'beta'), withFields(pageText('source', 'beta'), 'usage_mode: always')),
      write(pagePath('concept', 'beta-public'), withFields(pageText('concept', 'beta-public', { sources: ['raw/beta.md'] }), 'visibility: public')),
      write(pagePath('source', 'beta'), pageText('source', 'beta')),
      { text: 'Done.' },
    ]);
    expect(second.map((r) => r?.isError)).toEqual([false, true, true, true, true, false]);
    expect(second[1]?.content).toMatch(/usage_mode.*owner[\s\S]*reviewed_by: "dana"/);
    expect(second[2]?.content).toContain(OWNER_LINE);
    expect(second[3]?.content).toMatch(/leave `usage_mode` out/);
    expect(second[4]?.content).toMatch(/leave `visibility` out/);

    // A later run: the page is the tool's own writing now, and still the owner's fields hold.
    const third = await run('gamma', [
      write(ALPHA, alpha('usage_mode: never', `Notes, updated.\n\n${OWNER_LINE}`)),
      write(ALPHA, alpha(ownerFields, `Notes, updated again.\n\n${OWNER_LINE}`)),
      write(pagePath('source', 'gamma'), pageText('source', 'gamma')),
      { text: 'Done.' },
    ]);
    expect(third.map((r) => r?.isError)).toEqual([true, false, false]);
    expect(third[0]?.content).toContain('reviewed_by: "dana"');

    const final = await readFile(path.join(root, ALPHA), 'utf8');
    expect(final).toContain('usage_mode: never');
    expect(final).toContain('reviewed_by: dana');
    expect(final).toMatch(new RegExp(`^${OWNER_LINE}$`, 'm'));
    const search = JSON.parse((await runCli(['search', 'zanzibar qualia', '--json'], { cwd: root })).stdout) as { results: Array<{ path: string }> };
    expect(search.results.map((r) => r.path)).not.toContain(ALPHA);
  });
});
