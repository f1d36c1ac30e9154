import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, pageText, writeStep } from './cron-fixtures.js';

/**
 * `promote` stays in its lane (issue 28, item 7), through the built CLI and both wire
 * formats: Alice's model may write only pages in the type folders of her scratch scope
 * (not wiki/user/alice/user/bob/…, nor a log.md or index.md there), and `wiki promote`
 * never carries a page over the team's log, index or another user's scratch page.
 */
const serve = fakeServers();
const write = (p: string, content: string): ScriptStep => ({ toolCalls: [{ name: 'write_file', arguments: { path: p, content } }] });

describe.each(['anthropic', 'openai'] as const)('promote stays in its lane (%s wire format)', (wire) => {
  it('scratch scopes hold only type-folder pages, and promote moves only those', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha text.\n');
    const bobPage = pageText('concept', 'bob-idea', { sources: ['raw/alpha.md'], body: 'Bob\'s own idea.' });
    await mkdir(path.join(root, 'wiki/user/bob/concepts'), { recursive: true });
    await writeFile(path.join(root, 'wiki/user/bob/concepts/bob-idea.md'), bobPage);
    const teamLog = await readFile(path.join(root, 'wiki/log.md'), 'utf8');
    const forged = pageText('concept', 'forged', { sources: ['raw/alpha.md'] });
    const server = await serve([
      write('wiki/user/alice/user/bob/concepts/bob-idea.md', pageText('concept', 'bob-idea', { sources: ['raw/alpha.md'], body: 'Replaced.' })),
      write('wiki/user/alice/log.md', forged),
      write('wiki/user/alice/index.md', forged),
      write('wiki/user/alice/notes.md', forged),
      write('wiki/user/alice/concepts/alice-idea.md', pageText('concept', 'alice-idea', { sources: ['raw/alpha.md'] })),
      writeStep('source', 'alpha'),
      { text: 'Done.' },
    ]);
    const ingest = await runCli(['--user', 'alice', 'ingest', 'raw/alpha.md', '--json'], { cwd: root, env: server.env(wire) });
    expect(server.problems).toEqual([]);
    expect(ingest.code).toBe(0);
    const results = server.requests.slice(1).map((request) => request.toolResults[0]);
    expect(results.map((r) => r?.isError)).toEqual([true, true, true, true, false, false]);
    expect(results[0]?.content).toMatch(/outside the page folders.*wiki\/user\/alice\/concepts\//s);

    // Pages a human put outside the lane are not promoted either.
    await mkdir(path.join(root, 'wiki/user/alice/user/bob/concepts'), { recursive: true });
    await writeFile(path.join(root, 'wiki/user/alice/user/bob/concepts/bob-idea.md'), pageText('concept', 'bob-idea', { sources: ['raw/alpha.md'], body: 'Replaced.' }));
    await writeFile(path.join(root, 'wiki/user/alice/log.md'), forged.replace('title: forged', 'title: log'));
    for (const key of ['bob-idea', 'log']) {
      const refused = await runCli(['--user', 'alice', 'promote', key], { cwd: root });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/would become wiki\/(user\/bob\/concepts\/bob-idea|log)\.md, which is (in another scratch scope|a file the tool keeps), so it cannot be promoted/);
    }
    expect(await readFile(path.join(root, 'wiki/user/bob/concepts/bob-idea.md'), 'utf8')).toBe(bobPage);
    expect(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).toContain(teamLog.trim());

    // Good work: a page in a scratch type folder is promoted.
    const promoted = await runCli(['--user', 'alice', 'promote', 'alice-idea', '--json'], { cwd: root });
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(JSON.parse(promoted.stdout)).toMatchObject({ to: 'wiki/concepts/alice-idea.md' });
  });

  it('a page a person put at the root of their scratch scope is one page to every command: search and lint list it, promote moves it', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha text.\n');
    await mkdir(path.join(root, 'wiki/user/alice'), { recursive: true });
    await writeFile(path.join(root, 'wiki/user/alice/notes.md'), pageText('concept', 'notes', { sources: ['raw/alpha.md'], body: 'Quokka notes on alpha.' }));
    const search = await runCli(['--user', 'alice', 'search', 'quokka', '--json'], { cwd: root });
    expect((JSON.parse(search.stdout) as { results: Array<{ path: string }> }).results.map((r) => r.path)).toContain('wiki/user/alice/notes.md');
    const lint = await runCli(['--user', 'alice', 'lint', '--json'], { cwd: root });
    expect(lint.stdout).toContain('wiki/user/alice/notes.md');
    const promoted = await runCli(['--user', 'alice', 'promote', 'notes', '--json'], { cwd: root });
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(JSON.parse(promoted.stdout)).toMatchObject({ from: 'wiki/user/alice/notes.md', to: 'wiki/notes.md' });
    expect(await readFile(path.join(root, 'wiki/notes.md'), 'utf8')).toContain('Quokka notes on alpha.');
  });
});
