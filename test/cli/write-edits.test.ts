import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { RecordedRequest, ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, pagePath, pageText, read, sourceOf, unparseablePages, writeStep } from './cron-fixtures.js';

/**
 * write_file's `edits` through the built CLI on both wire formats: a page changed in place,
 * a sentence at a time, checked like any write — the contract, links, a human's lines, the
 * stale-write rule of concurrent jobs — with a short answer, and refusals that quote the
 * page's own numbered lines.
 */

const serve = fakeServers();
const HARBOUR = pagePath('concept', 'harbour');
const BODY = ['The harbour opens at dawn.', '', 'Boats leave at noon.', '', 'The harbour closes at dusk.'].join('\n');

async function workspace(): Promise<string> {
  const root = await freshWorkspace();
  for (const key of ['alpha', 'beta']) await writeFile(path.join(root, `raw/${key}.md`), `# ${key}\n\nA source about ${key} and the harbour.\n`);
  return root;
}

const edit = (edits: Array<{ old: string; new: string }>, target = HARBOUR): ScriptStep => ({ toolCalls: [{ name: 'write_file', arguments: { path: target, edits } }] });

async function ingest(root: string, api: 'anthropic' | 'openai', source: string, turns: ScriptStep[]) {
  const server = await serve([...turns, writeStep('source', source), { text: `Ingested raw/${source}.md.` }]);
  const result = await runCli(['ingest', `raw/${source}.md`, '--json'], { cwd: root, env: server.env(api) });
  expect(server.problems).toEqual([]);
  const results = server.requests.slice(1).map((request) => request.toolResults.at(-1));
  return { result, results, server };
}

describe.each(['anthropic', 'openai'] as const)('write_file edits (%s wire format)', (api) => {
  it('one edit, then several in one call: the page changes in place, its frontmatter in step, the answer short', async () => {
    const root = await workspace();
    await writeFile(path.join(root, HARBOUR), pageText('concept', 'harbour', { body: BODY, sources: ['raw/alpha.md'] }));
    await writeFile(path.join(root, pagePath('source', 'alpha')), pageText('source', 'alpha'));
    const { result, results } = await ingest(root, api, 'beta', [
      edit([{ old: 'opens at dawn', new: 'opens at six' }]),
      edit([
        { old: 'Boats leave at noon.', new: 'Boats leave at noon, as [[alpha]] says.' },
        { old: 'closes at dusk', new: 'closes at nine' },
      ]),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const page = await read(root, HARBOUR);
    expect(results[0]?.content).toMatch(/^edited wiki\/concepts\/harbour\.md: 1 edit \(now at line 10\); the page is now \d+ characters\nfrontmatter kept in step with the body: updated: \d{4}-\d\d-\d\d$/);
    expect(results[1]?.content).toMatch(/^edited wiki\/concepts\/harbour\.md: 2 edits \(now at lines 12, 14\); the page is now (\d+) characters\nfrontmatter kept in step with the body: added to refs: alpha/);
    expect(results[1]?.content).toContain(`the page is now ${page.length} characters`);
    expect(page).toContain('The harbour opens at six.\n\nBoats leave at noon, as [[alpha]] says.\n\nThe harbour closes at nine.\n');
    expect(page).toContain('refs: [alpha]');
    expect(await unparseablePages(root)).toEqual([]);
  });

  it('an edit that would break the contract or a link, a missing old and an ambiguous one: refused with the reason, the page untouched', async () => {
    const root = await workspace();
    const before = pageText('concept', 'harbour', { body: BODY, sources: ['raw/alpha.md'] });
    await writeFile(path.join(root, HARBOUR), before);
    const { server } = await ingest(root, api, 'beta', [
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: HARBOUR, edits: [{ old: 'Boats leave at noon.', new: 'Boats leave for [[nowhere-port]].' }] } },
          { name: 'write_file', arguments: { path: HARBOUR, edits: [{ old: 'summary: What the wiki knows about harbour.\n', new: '' }] } },
          { name: 'write_file', arguments: { path: HARBOUR, edits: [{ old: 'Boats depart at noon.', new: 'Ships depart at noon.' }] } },
          { name: 'write_file', arguments: { path: HARBOUR, edits: [{ old: 'The harbour', new: 'The port' }] } },
        ],
      },
    ]);
    const results = server.requests[1]?.toolResults ?? [];
    expect(results.map((r) => r.isError)).toEqual([true, true, true, true]);
    const head = /^(Error: )?rejected: wiki\/concepts\/harbour\.md was not changed/;
    for (const r of results) expect(r.content).toMatch(head);
    expect(results[0]?.content).toContain('names a missing page "nowhere-port"');
    expect(results[0]?.content).toContain('call write_file again with the edits');
    expect(results[1]?.content).toMatch(/summary/);
    // The closest line, numbered as the file is (frontmatter included).
    expect(results[2]?.content).toContain('"old" was not found');
    expect(results[2]?.content).toContain('  12│Boats leave at noon.');
    expect(results[3]?.content).toContain('"old" occurs 2 times (lines 10, 14)');
    expect(results[3]?.content).toContain('  10│The harbour opens at dawn.');
    expect(results[3]?.content).toContain('  14│The harbour closes at dusk.');
    expect(await read(root, HARBOUR)).toBe(before);
  });

  it('an edit over a line a human wrote is refused; an edit beside it lands and keeps it', async () => {
    const root = await workspace();
    const first = await ingest(root, api, 'alpha', [writeStep('concept', 'harbour', { body: BODY, sources: ['raw/alpha.md'] })]);
    expect(first.result.code, first.result.stderr).toBe(0);
    const written = await read(root, HARBOUR);
    await writeFile(path.join(root, HARBOUR), written.replace('Boats leave at noon.', 'Boats leave at noon, the harbourmaster says.'));
    const { result, results } = await ingest(root, api, 'beta', [
      edit([{ old: 'Boats leave at noon, the harbourmaster says.', new: 'Boats leave at one.' }]),
      edit([{ old: 'closes at dusk', new: 'closes at nine' }]),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(results[0]?.isError).toBe(true);
    expect(results[0]?.content).toContain('a human edited this page');
    expect(results[1]?.content).toMatch(/^edited wiki\/concepts\/harbour\.md: 1 edit/);
    const page = await read(root, HARBOUR);
    expect(page).toContain('Boats leave at noon, the harbourmaster says.');
    expect(page).toContain('The harbour closes at nine.');
  });
});

/** Resolves once `count` callers are waiting: every job has made its first request. */
function barrier(count: number): () => Promise<void> {
  let waiting = 0;
  let release: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (release = resolve));
  return async () => {
    waiting += 1;
    if (waiting >= count) release();
    await all;
  };
}

describe('write_file edits racing another job (--jobs)', () => {
  it.each(['anthropic', 'openai'] as const)('the later edit of the same page is refused as stale with the page quoted, then lands: both changes are kept (%s)', async (api) => {
    const root = await workspace();
    await writeFile(path.join(root, HARBOUR), pageText('concept', 'harbour', { body: BODY, sources: ['raw/alpha.md'] }));
    const started = barrier(2);
    const mine = (key: string) => (key === 'alpha' ? { old: 'opens at dawn', new: 'opens at six' } : { old: 'closes at dusk', new: 'closes at nine' });
    const server = await serve(async (request: RecordedRequest): Promise<ScriptStep> => {
      const key = sourceOf(request) ?? 'unknown';
      const last = request.toolResults.at(-1);
      if (!last) {
        await started();
        return edit([mine(key)]);
      }
      if (last.isError && last.content.includes('since you last saw it')) return edit([mine(key)]);
      if (last.content.includes('harbour.md')) return writeStep('source', key);
      return { text: `Ingested raw/${key}.md.` };
    });
    const result = await runCli(['ingest', 'raw/', '--jobs', '2', '--json'], { cwd: root, env: server.env(api) });
    expect(result.code, result.stderr).toBe(0);
    const stale = server.requests.filter((r) => r.toolResults.at(-1)?.content.includes('since you last saw it'));
    expect(stale).toHaveLength(1);
    expect(stale[0]?.toolResults.at(-1)?.content).toMatch(/was changed by the run ingesting raw\/(alpha|beta)\.md since you last saw it/);
    const page = await read(root, HARBOUR);
    expect(page).toContain('The harbour opens at six.');
    expect(page).toContain('The harbour closes at nine.');
    expect(await unparseablePages(root)).toEqual([]);
  });
});
