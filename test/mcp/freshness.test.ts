import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Freshness } from '../../src/mcp/freshness.js';
import { LivePages } from '../../src/mcp/live-pages.js';
import { LiveSchema } from '../../src/mcp/live-schema.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { capRank, isVisibleTo } from '../../src/wiki/access.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';

/**
 * "Within about a second, however the file changed", tested through events and never a
 * clock: the full check behind the watch runs once an hour here, so only the watch can
 * bring a change in, and each wait is for the watch's next refresh. A watch that misses a
 * change never refreshes, and the test fails (it does not pass late).
 */

const HOUR = 3_600_000;
let root: string;
let pages: LivePages;
let freshness: Freshness;
let waiters: Array<() => void> = [];
const log: string[] = [];

const pageText = (visibility: string, body: string): string => `---\ntitle: Plan\nsummary: The plan.\ntype: concept\nvisibility: ${visibility}\n---\n${body}\n`;
const PLAN = 'wiki/concepts/plan.md';

async function put(relPath: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relPath)), { recursive: true });
  await writeFile(path.join(root, relPath), text);
}

/** Refresh by refresh, until `check` holds: the waiter is set before each check, so no refresh is missed. */
async function untilRefreshed(check: () => Promise<boolean>): Promise<void> {
  for (;;) {
    const next = new Promise<void>((resolve) => waiters.push(resolve));
    if (await check()) return;
    await next;
  }
}

async function visibilityOf(key: string): Promise<unknown> {
  return (await pages.current()).get(key)?.frontmatter.visibility;
}

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, encoding: 'utf8' });
}

beforeEach(async () => {
  root = path.join(await mkdtemp(path.join(os.tmpdir(), 'wiki-fresh-')), 'ws');
  await initWorkspace(root, { today: '2026-01-01' });
  await put(PLAN, pageText('public', 'The plan is open.'));
  pages = new LivePages(root, new LiveSchema(root, await loadSchema(root)), { watched: true });
  const search = { markChanged: () => undefined, refreshIfOpen: async () => undefined };
  waiters = [];
  freshness = new Freshness(root, pages, search, (line) => log.push(line), HOUR, () => {
    for (const wake of waiters.splice(0)) wake();
  });
  freshness.start();
  expect(await visibilityOf('plan')).toBe('public');
});
afterEach(() => freshness.close());

describe('the watch behind wiki serve and wiki mcp', () => {
  it('good work: an edit in place is seen at the next refresh', async () => {
    await put(PLAN, pageText('private', 'The plan is closed.'));
    await untilRefreshed(async () => (await visibilityOf('plan')) === 'private');
  });

  it('sees a page replaced by `git checkout REV -- page.md`', async () => {
    git('init', '-q');
    await put(PLAN, pageText('private', 'The plan is closed.'));
    git('add', '-A');
    git('commit', '-qm', 'private');
    const privateRev = git('rev-parse', 'HEAD').trim();
    await put(PLAN, pageText('public', 'The plan is open again.'));
    git('commit', '-qam', 'public');
    await untilRefreshed(async () => (await visibilityOf('plan')) === 'public');
    git('checkout', privateRev, '--', PLAN);
    await untilRefreshed(async () => (await visibilityOf('plan')) === 'private');
  });

  it("sees an editor's save-by-rename, and an edit of the file that replaced the page after it", async () => {
    await put('wiki/concepts/.plan.md.swp', pageText('private', 'Saved by rename.'));
    await rename(path.join(root, 'wiki/concepts/.plan.md.swp'), path.join(root, PLAN));
    await untilRefreshed(async () => (await visibilityOf('plan')) === 'private');
    // Node's own recursive watch follows the old file and misses this one.
    await put(PLAN, pageText('internal', 'Edited after the rename.'));
    await untilRefreshed(async () => (await visibilityOf('plan')) === 'internal');
  });

  it('sees wiki/ swapped for a renamed copy, and keeps watching the new wiki/', async () => {
    const copy = path.join(root, 'wiki.new');
    await cp(path.join(root, 'wiki'), copy, { recursive: true });
    await writeFile(path.join(copy, 'concepts', 'plan.md'), pageText('private', 'Swapped in.'));
    await rename(path.join(root, 'wiki'), path.join(root, 'wiki.old'));
    await rename(copy, path.join(root, 'wiki'));
    await untilRefreshed(async () => (await visibilityOf('plan')) === 'private');
    await rm(path.join(root, 'wiki.old'), { recursive: true });
    // The watch was re-established on the new wiki/: an edit there, and a page in a new folder, are seen.
    await put(PLAN, pageText('internal', 'Edited in the new wiki/.'));
    await untilRefreshed(async () => (await visibilityOf('plan')) === 'internal');
    await put('wiki/entities/new-folder-page.md', pageText('public', 'In a folder made after the swap.').replace('title: Plan', 'title: New'));
    await untilRefreshed(async () => (await pages.current()).get('new-folder-page') !== undefined);
    await put('wiki/entities/new-folder-page.md', pageText('private', 'Edited in the new folder.').replace('title: Plan', 'title: New'));
    await untilRefreshed(async () => (await visibilityOf('new-folder-page')) === 'private');
  });

  it('reads schema.md again: a level added while running is known, and a page marked with it is hidden from lower caps', async () => {
    await put(PLAN, pageText('board-only', 'For the board.'));
    await untilRefreshed(async () => (await visibilityOf('plan')) === 'board-only');
    // Not yet declared: the most restrictive level, so an internal cap does not see it.
    const internal = { maxRank: capRank(pages.contract, 'internal') };
    expect(isVisibleTo(pages.contract, (await pages.current()).get('plan')!, internal)).toBe(false);
    const schemaFile = path.join(root, 'schema.md');
    const schema = await readFile(schemaFile, 'utf8');
    const declared = schema.replace(/levels:\s*\[([^\]]*)\]/, (_all, levels: string) => `levels: [${levels}, board-only]`);
    expect(declared).not.toBe(schema);
    await writeFile(schemaFile, declared);
    await untilRefreshed(async () => {
      await pages.current();
      return capRank(pages.contract, 'board-only') !== undefined;
    });
    const plan = (await pages.current()).get('plan')!;
    expect(isVisibleTo(pages.contract, plan, { maxRank: capRank(pages.contract, 'private') })).toBe(false);
    expect(isVisibleTo(pages.contract, plan, { maxRank: capRank(pages.contract, 'board-only') })).toBe(true);
  });
});
