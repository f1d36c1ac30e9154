import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.js';
import { startWikiServe, type RunningServe } from '../../src/serve/http-server.js';
import { addToken } from '../../src/serve/tokens.js';
import { ensureWikiId } from '../../src/serve/wiki-id.js';
import { freshWorkspace } from '../cli/cron-fixtures.js';
import { connect, tokensFile, type HttpSession } from './serve-fixtures.js';

/**
 * `wiki serve` in this process, called by the MCP SDK's own HTTP client, so the tests can
 * wait on the server's own refresh events (never on a clock): a page made private however
 * its file changed, and a level added to schema.md, reach the next call after the refresh
 * that follows the change. The full check behind the watch runs once an hour here.
 */

const HOUR = 3_600_000;

function pageText(title: string, visibility: string, body: string): string {
  return ['---', `title: ${title}`, `summary: About ${title.toLowerCase()}.`, 'type: concept', `visibility: ${visibility}`, 'created: 2026-11-21', 'updated: 2026-11-21', '---', '', body, ''].join('\n');
}

interface Running {
  root: string;
  url: string;
  tokens: Record<string, string>;
  /** Resolves after the server's next refresh that follows a change on disk. */
  nextRefresh(): Promise<void>;
  server: RunningServe;
  file: string;
  log: string[];
}

let running: Running | undefined;
const sessions: HttpSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close().catch(() => undefined);
  await running?.server.close();
  running = undefined;
});

async function start(pages: Record<string, string>, caps: Record<string, string>, rateLimit = { requests: 10_000, perSeconds: 60 }): Promise<Running> {
  const root = await freshWorkspace();
  for (const [relPath, text] of Object.entries(pages)) {
    await mkdir(path.dirname(path.join(root, relPath)), { recursive: true });
    await writeFile(path.join(root, relPath), text);
  }
  const file = await tokensFile();
  const wiki = ensureWikiId(root);
  const tokens: Record<string, string> = {};
  for (const [name, cap] of Object.entries(caps)) tokens[name] = (await addToken(file, { name, maxVisibility: cap, wiki })).token;
  const settings = await loadSettings(root);
  let waiters: Array<() => void> = [];
  const log: string[] = [];
  const server = await startWikiServe(
    { root, schema: settings.schema, config: settings.config.config },
    { host: '127.0.0.1', port: 0, tokensFile: file, rateLimit, fullCheckMs: HOUR, env: {}, log: (line) => log.push(line), onRefreshed: () => waiters.splice(0).forEach((wake) => wake()) },
  );
  running = { root, url: server.url, tokens, server, file, log, nextRefresh: () => new Promise<void>((resolve) => waiters.push(resolve)) };
  return running;
}

async function session(url: string, token: string): Promise<HttpSession> {
  const opened = await connect(url, token);
  sessions.push(opened);
  return opened;
}

/** Refresh by refresh until `check` holds; the waiter is set before each check, so none is missed. */
async function untilRefreshed(served: Running, check: () => Promise<boolean>): Promise<void> {
  for (;;) {
    const next = served.nextRefresh();
    if (await check()) return;
    await next;
  }
}

const PLAN = 'wiki/concepts/launch-plan.md';
const found = async (reader: HttpSession, key: string): Promise<boolean> => (await reader.json<{ found: boolean }>('read_page', { key })).found;

describe('wiki serve: access that never lags', () => {
  it('good work: a page edited in place to private is hidden from a public token at the next refresh', async () => {
    const served = await start({ [PLAN]: pageText('Launch plan', 'public', 'We launch in spring.') }, { reader: 'public' });
    const reader = await session(served.url, served.tokens.reader!);
    expect(await found(reader, 'launch-plan')).toBe(true);
    await writeFile(path.join(served.root, PLAN), pageText('Launch plan', 'private', 'We launch in spring.'));
    await untilRefreshed(served, async () => !(await found(reader, 'launch-plan')));
  });

  it('hides a page made private by `git checkout REV -- page.md` (the file replaced, not edited)', async () => {
    const served = await start({ [PLAN]: pageText('Launch plan', 'private', 'The acquisition closes in May.') }, { reader: 'public' });
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: served.root, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'private plan');
    const privateRev = git('rev-parse', 'HEAD').trim();
    const reader = await session(served.url, served.tokens.reader!);
    await writeFile(path.join(served.root, PLAN), pageText('Launch plan', 'public', 'Nothing to see.'));
    await untilRefreshed(served, async () => found(reader, 'launch-plan'));
    git('checkout', privateRev, '--', PLAN);
    await untilRefreshed(served, async () => !(await found(reader, 'launch-plan')));
    for (const text of reader.transcript) expect(text).not.toMatch(/acquisition/);
  });

  it('knows a level added to schema.md while it runs: a page marked with it is served to no lower cap', async () => {
    const served = await start({ [PLAN]: pageText('Launch plan', 'public', 'The board decides.') }, { reader: 'private' });
    const reader = await session(served.url, served.tokens.reader!);
    expect(await found(reader, 'launch-plan')).toBe(true);
    // A level above private, declared while the server runs, and the page marked with it: a private token no longer sees it.
    const schemaFile = path.join(served.root, 'schema.md');
    const schema = await readFile(schemaFile, 'utf8');
    await writeFile(schemaFile, schema.replace(/levels:\s*\[([^\]]*)\]/, (_all, levels: string) => `levels: [${levels}, board-only]`));
    await writeFile(path.join(served.root, PLAN), pageText('Launch plan', 'board-only', 'The board decides.'));
    await untilRefreshed(served, async () => !(await found(reader, 'launch-plan')));
  });

  it("withholds a search snippet from a line that links to a withheld page, also through a [[key|label]]", async () => {
    const served = await start(
      {
        'wiki/concepts/roadmap.md': pageText('Roadmap', 'public', 'Our roadmap covers the quokka habitat survey.\n\nBudget for the quokka work is in [[secret-plan|the Quokkaville acquisition]].\n'),
        'wiki/concepts/secret-plan.md': pageText('Secret plan', 'private', 'We buy Quokkaville.'),
      },
      { reader: 'public', owner: 'private' },
    );
    type Searched = { results: Array<{ key: string; snippet: string }> };
    const reader = await session(served.url, served.tokens.reader!);
    const hit = (await reader.json<Searched>('search_wiki', { query: 'quokkaville acquisition quokka budget' })).results.find((r) => r.key === 'roadmap');
    expect(hit).toBeDefined();
    expect(hit!.snippet).not.toMatch(/Quokkaville|acquisition/i);
    // Good work: the owner, who may see the plan, gets the line.
    const owner = await session(served.url, served.tokens.owner!);
    const ownHit = (await owner.json<Searched>('search_wiki', { query: 'quokkaville acquisition budget' })).results.find((r) => r.key === 'roadmap');
    expect(ownHit?.snippet).toMatch(/Quokkaville acquisition/);
  });
});

describe('wiki serve: refusals', () => {
  const post = (url: string, body: unknown, token?: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const searchCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_wiki', arguments: { query: 'plan' } } });

  it('counts each JSON-RPC call of a batch against the rate limit', async () => {
    const served = await start({ [PLAN]: pageText('Launch plan', 'public', 'Spring.') }, { busy: 'public', calm: 'public' }, { requests: 5, perSeconds: 3600 });
    const batch = await post(served.url, Array.from({ length: 40 }, (_, i) => searchCall(i)), served.tokens.busy);
    expect(batch.status).toBe(429);
    expect(await batch.text()).toMatch(/batch of 40 calls/);
    const three = await post(served.url, [searchCall(1), searchCall(2), searchCall(3)], served.tokens.busy);
    expect(three.status).not.toBe(429);
    const againThree = await post(served.url, [searchCall(4), searchCall(5), searchCall(6)], served.tokens.busy);
    expect(againThree.status).toBe(429);
    expect(Number(againThree.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Good work: single calls within the budget pass, and another token has its own.
    expect((await post(served.url, searchCall(7), served.tokens.calm)).status).not.toBe(429);
  });

  it("says whether the token was missing or not recognised, names `wiki serve token add`, and nothing of the wiki; another wiki's token is not recognised either", async () => {
    const served = await start({ [PLAN]: pageText('Launch plan', 'public', 'Spring.') }, { reader: 'public' });
    // A token of another wiki, in the same tokens file: refused exactly as one that never existed.
    const foreign = (await addToken(served.file, { name: 'reader', maxVisibility: 'private', wiki: 'another-wiki-0b7a8f52' })).token;
    const answers: Array<[string, Response]> = [
      ['missing', await post(served.url, searchCall(1))],
      ['not recognised', await post(served.url, searchCall(1), 'wiki_not-a-real-token')],
      ['not recognised', await post(served.url, searchCall(1), foreign)],
    ];
    const bodies: string[] = [];
    for (const [why, response] of answers) {
      expect(response.status).toBe(401);
      const text = await response.text();
      bodies.push(text);
      expect(text).toContain(why);
      expect(text).toContain('wiki serve token add');
      expect(text).not.toMatch(/launch|\/tmp|tokens\.json|wiki\.id|concepts|\.md/i);
      expect(text).not.toContain(path.basename(served.root));
    }
    expect(bodies[2]).toBe(bodies[1]);
    // Good work: the reader's own token is answered.
    const reader = await session(served.url, served.tokens.reader!);
    expect(await found(reader, 'launch-plan')).toBe(true);
  });

  it('answers the OAuth discovery paths a client probes with "this server uses bearer tokens"', async () => {
    const served = await start({}, { reader: 'public' });
    const base = served.url.replace(/\/mcp$/, '');
    for (const probe of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/register']) {
      const response = await fetch(`${base}${probe}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toMatch(/this server uses bearer tokens/);
    }
    expect(await (await fetch(`${base}/elsewhere`)).text()).not.toMatch(/bearer tokens/);
  });
});
