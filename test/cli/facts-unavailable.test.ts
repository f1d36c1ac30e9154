import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { cloneWorkspace, runCli } from '../helpers/cli.js';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, simpleIngest } from './cron-fixtures.js';
import { describeWithSqlite } from '../helpers/sqlite.js';

/**
 * better-sqlite3 is a native addon. Where it cannot load, every command that needs no facts
 * still works, and those that need them fail with exit 2 and one line saying what failed and
 * how to fix it. The failure is real: WIKI_SQLITE_BINDING names an addon that is no addon.
 */
const BROKEN = { WIKI_SQLITE_BINDING: '/nonexistent/better_sqlite3.node' };
const ONE_LINE = /^error: the facts store \(\.wiki\/facts\.db\) needs SQLite, and the addon WIKI_SQLITE_BINDING names \(\/nonexistent\/better_sqlite3\.node\) could not be loaded: .* — point WIKI_SQLITE_BINDING at a better_sqlite3\.node built for this Node\.js, or unset it\n$/;

let template: string;

describeWithSqlite('a facts store whose SQLite addon cannot load', () => {
  beforeAll(async () => {
    template = await freshWorkspace();
    await writeFile(path.join(template, 'raw', 'bridge.md'), '# The bridge\n\nThe bridge opened in 1937.\nIts main span is 1,280 metres long.\n');
    const rebuilt = await runCli(['facts', 'rebuild'], { cwd: template });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
  });

  it.each([
    { command: ['facts', 'stats'] },
    { command: ['facts', 'search', 'main span'] },
    { command: ['facts', 'show', 'f-000000000000'] },
    { command: ['facts', 'rebuild'] },
    { command: ['query', '--facts', 'when did the bridge open?'] },
    { command: ['lint', '--no-llm'] },
  ])('wiki $command.0 $command.1 exits 2 with one line naming the addon and the fix', async ({ command }) => {
    const root = await cloneWorkspace(template);
    const result = await runCli(command, { cwd: root, env: BROKEN });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(ONE_LINE);
  });

  it.each([
    // No page holds "bridge" in this workspace: found: false is exit 1, as without facts.
    { command: ['search', 'bridge'], shows: /No pages match|\[\[/, code: 1 },
    { command: ['status'], shows: /Grounded: unavailable — the facts store .* could not be loaded/, code: 0 },
    { command: ['graph', '--format', 'json'], shows: /"nodes"/, code: 0 },
    { command: ['config'], shows: /model/, code: 0 },
  ])('wiki $command.0 still works', async ({ command, shows, code }) => {
    const root = await cloneWorkspace(template);
    const result = await runCli(command, { cwd: root, env: BROKEN });
    expect(result.code, result.stderr).toBe(code);
    expect(result.stdout).toMatch(shows);
  });

  it('wiki ingest writes its pages and says the facts were not extracted', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw', 'bridge.md'), '# The bridge\n\nThe bridge opened in 1937.\n');
    const server = await startFakeLlmServer(simpleIngest('bridge'));
    try {
      const result = await runCli(['ingest', 'raw/bridge.md', '--json'], { cwd: root, env: { ...server.env('anthropic'), ...BROKEN } });
      expect(result.code, result.stderr).toBe(0);
      expect(existsSync(path.join(root, 'wiki/sources/bridge.md'))).toBe(true);
      expect(result.stderr).toMatch(/facts not extracted: the facts store .* could not be loaded/);
      expect(JSON.parse(result.stdout)).toMatchObject({ factsUnavailable: expect.stringMatching(/WIKI_SQLITE_BINDING/) });
      expect(existsSync(path.join(root, '.wiki/facts.db'))).toBe(false);
    } finally {
      await server.close();
    }
  });
});

