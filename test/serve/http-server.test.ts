import { createHash } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/cli.js';
import { readWikiId } from '../../src/serve/wiki-id.js';
import { freshWorkspace, patchConfig } from '../cli/cron-fixtures.js';
import { addToken, connect, serve, tokensFile, type Served } from './serve-fixtures.js';

/**
 * `wiki serve` through the built CLI and the MCP SDK's own Streamable HTTP client: each call
 * is answered as its token's caller may see the wiki, and refused before any tool runs when
 * the token is missing, unknown, unserveable or over its rate limit.
 */

function page(key: string, folder: string, fields: { title: string; visibility?: string; refs?: string[] }, body: string): [string, string] {
  const lines = ['---', `title: ${fields.title}`, `summary: About ${fields.title.toLowerCase()}.`, 'type: concept'];
  if (fields.visibility) lines.push(`visibility: ${fields.visibility}`);
  if (fields.refs) lines.push(`refs: [${fields.refs.join(', ')}]`);
  lines.push('created: 2026-11-21', 'updated: 2026-11-21', '---', '', body, '');
  return [`${folder}/${key}.md`, lines.join('\n')];
}

const PAGES = [
  page('open-topic', 'wiki/concepts', { title: 'Open topic', refs: ['team-plan', 'zebra-secret'] }, 'Photosynthesis turns light into sugar. See [[team-plan]] and [[zebra-secret]].'),
  page('team-plan', 'wiki/concepts', { title: 'Team plan', visibility: 'internal' }, 'Quarterly roadmap for the glacier project, about photosynthesis too.'),
  page('zebra-secret', 'wiki/concepts', { title: 'Zebra secret', visibility: 'private' }, 'The vault code is marmalade-42; photosynthesis and glacier are mentioned here as well.'),
  page('alice-draft', 'wiki/user/alice', { title: 'Alice draft' }, 'Alice drafts about tangerines and photosynthesis.'),
];
/** What a token capped below private may never see in any answer. */
const PRIVATE = [/zebra-secret/i, /zebra secret/i, /marmalade/i];

async function workspaceWithPages(): Promise<string> {
  const root = await freshWorkspace();
  for (const [relPath, text] of PAGES) {
    await mkdir(path.dirname(path.join(root, relPath)), { recursive: true });
    await writeFile(path.join(root, relPath), text);
  }
  return root;
}

type Listed = { pages: Array<{ key: string }> };
type Searched = { found: boolean; results: Array<{ key: string; links: string[]; backlinks: string[]; snippet: string }> };

describe('wiki serve, one server for a team', () => {
  let root: string;
  let file: string;
  const tokens: Record<'pub' | 'int' | 'alice', string> = { pub: '', int: '', alice: '' };
  let served: Served;

  beforeAll(async () => {
    root = await workspaceWithPages();
    file = await tokensFile();
    tokens.pub = await addToken(root, file, 'pub-bot', 'public');
    tokens.int = await addToken(root, file, 'int-bot', 'internal');
    tokens.alice = await addToken(root, file, 'alice-laptop', 'internal', 'alice');
    served = await serve(root, file);
  }, 120_000);
  afterAll(async () => served?.stop());

  it('prints the loopback URL it listens on', () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it.each([
    ['pub', ['open-topic']],
    ['int', ['open-topic', 'team-plan']],
    ['alice', ['alice-draft', 'open-topic', 'team-plan']],
  ] as const)('a %s token sees exactly its pages, and nothing of the private one', async (who, visible) => {
    const session = await connect(served.url, tokens[who]);
    try {
      const listed = await session.json<Listed>('list_pages');
      expect(listed.pages.map((p) => p.key).sort()).toEqual([...visible]);
      const searched = await session.json<Searched>('search_wiki', { query: 'photosynthesis glacier' });
      // Search judges its hits as the CLI does (weak ones far below the best are left out): only visible pages, at least one.
      expect(searched.results.length).toBeGreaterThan(0);
      expect(searched.results.map((r) => r.key).filter((key) => !(visible as readonly string[]).includes(key))).toEqual([]);
      const secret = await session.json<{ found: boolean; closeMatches: string[] }>('read_page', { key: 'zebra-secret' });
      expect(secret).toMatchObject({ found: false, closeMatches: [] });
      session.transcript.pop(); // it echoes the key asked for
      const open = await session.json<{ found: boolean }>('read_page', { key: 'open-topic' });
      expect(open.found).toBe(true);
      await session.call('ask_wiki', { question: 'What is the vault code of the zebra?' });
      await session.call('lint_report');
      await session.call('read_page', { key: 'zebra-secre' });
      for (const text of session.transcript) for (const pattern of PRIVATE) expect(text).not.toMatch(pattern);
      if (who === 'pub') for (const text of session.transcript) expect(text).not.toMatch(/team-plan|Team plan|roadmap/i);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('refuses a missing or wrong token with 401, saying nothing about the wiki', async () => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wiki_not-a-token' }, { authorization: `Basic ${tokens.int}` }];
    for (const headers of attempts) {
      const response = await fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_pages', arguments: {} } }),
      });
      expect(response.status).toBe(401);
      const body = await response.text();
      expect(body).not.toMatch(/open-topic|Open topic|photosynthesis|wiki\/|concept/i);
    }
    await expect(connect(served.url, 'wiki_wrong')).rejects.toThrow(/401|unauthorized/i);
  });

  it('answers 50 clients at once, each correctly', async () => {
    const sessions = await Promise.all(Array.from({ length: 50 }, (_, i) => connect(served.url, i % 2 === 0 ? tokens.pub : tokens.int)));
    try {
      const answers = await Promise.all(sessions.map((session) => session.json<Searched>('search_wiki', { query: 'glacier roadmap' })));
      answers.forEach((answer, i) => {
        const keys = answer.results.map((r) => r.key);
        if (i % 2 === 0) expect(keys).not.toContain('team-plan');
        else expect(keys[0]).toBe('team-plan');
      });
    } finally {
      await Promise.all(sessions.map((session) => session.close()));
    }
  }, 120_000);

  it('finds a page written on disk while it runs, without a restart', async () => {
    const session = await connect(served.url, tokens.pub);
    try {
      const [relPath, text] = page('quokka-facts', 'wiki/concepts', { title: 'Quokka facts' }, 'Quokkas live on Rottnest island.');
      await writeFile(path.join(root, relPath), text);
      // Found within about a second; the bound is generous so a loaded machine never fails it.
      await waitFor(async () => (await session.json<Searched>('search_wiki', { query: 'quokka rottnest' })).results.some((r) => r.key === 'quokka-facts'), 'the new page to be found', 15_000);
      expect((await session.json<{ found: boolean }>('read_page', { key: 'quokka-facts' })).found).toBe(true);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('logs one line per call with the token name, the call, the size and the time, never the token', async () => {
    const log = served.stderr();
    expect(log).toMatch(/^\S+Z token=int-bot call=search_wiki status=200 bytes=\d+ ms=\d+$/m);
    expect(log).toMatch(/token=- call=- status=401/);
    for (const token of Object.values(tokens)) expect(log).not.toContain(token);
  });
});

describe('wiki serve refusals and outcomes', () => {
  it('limits each token to its rate, with a 429 saying when to retry; other tokens go on', async () => {
    const root = await workspaceWithPages();
    const file = await tokensFile();
    const busy = await addToken(root, file, 'busy', 'public');
    const other = await addToken(root, file, 'other', 'public');
    // Per hour, so refills never happen within the test, however slow the machine.
    const served = await serve(root, file, ['--rate-limit', '4/3600']);
    try {
      const session = await connect(served.url, busy); // initialize + initialized: 2 requests
      await session.json('list_pages');
      await session.json('list_pages');
      await expect(session.call('list_pages')).rejects.toThrow(/429|too many requests/i);
      const response = await fetch(served.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${busy}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const fresh = await connect(served.url, other);
      expect((await fresh.json<Listed>('list_pages')).pages.length).toBeGreaterThan(0);
      await fresh.close();
      await session.close().catch(() => undefined);
    } finally {
      await served.stop();
    }
  }, 120_000);

  it('tells the four outcomes apart: found false, not configured, failing, forbidden', async () => {
    const file = await tokensFile();

    // found: false — a real search that matches nothing.
    const plain = await workspaceWithPages();
    const token = await addToken(plain, file, 'reader', 'internal');
    // A token of this wiki whose cap schema.md does not declare (any more): known, but forbidden here.
    const foreign = 'wiki_foreign-token-for-another-wiki';
    const { readFile } = await import('node:fs/promises');
    const book = JSON.parse(await readFile(file, 'utf8')) as { version: 1; tokens: object[] };
    const wiki = readWikiId(plain);
    book.tokens.push({ name: 'foreign', sha256: createHash('sha256').update(foreign).digest('hex'), maxVisibility: 'top-secret', createdAt: new Date().toISOString(), wiki });
    await writeFile(file, JSON.stringify(book));

    let served = await serve(plain, file);
    try {
      const session = await connect(served.url, token);
      const none = await session.json<Searched>('search_wiki', { query: 'xylophone' });
      expect(none).toMatchObject({ found: false, results: [] });
      await session.close();
      const response = await fetch(served.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${foreign}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      expect(response.status).toBe(403);
      expect(await response.text()).toMatch(/forbidden/);
      await expect(connect(served.url, foreign)).rejects.toThrow(/403|forbidden/i);
    } finally {
      await served.stop();
    }

    // Not configured: every lane off.
    // The next two are clones of the same wiki (its wiki.id), so the reader's token is theirs too.
    const off = await workspaceWithPages();
    await copyFile(path.join(plain, 'wiki.id'), path.join(off, 'wiki.id'));
    await patchConfig(off, { search: { weights: { lexical: 0, token: 0 }, embedder: { kind: 'none' } } });
    served = await serve(off, file);
    try {
      const session = await connect(served.url, token);
      const answer = await session.call('search_wiki', { query: 'photosynthesis' });
      expect(answer).toMatchObject({ isError: true, outcome: 'not_configured' });
      expect(answer.text).toMatch(/search is not set up/);
      await session.close();
    } finally {
      await served.stop();
    }

    // Failing: the index cannot be kept (a folder where its file goes).
    const broken = await workspaceWithPages();
    await copyFile(path.join(plain, 'wiki.id'), path.join(broken, 'wiki.id'));
    await mkdir(path.join(broken, '.wiki', 'search', 'index.bin'), { recursive: true });
    served = await serve(broken, file);
    try {
      const session = await connect(served.url, token);
      const answer = await session.call('search_wiki', { query: 'photosynthesis' });
      expect(answer).toMatchObject({ isError: true, outcome: 'failing' });
      expect(answer.text).toMatch(/index\.bin/);
      await session.close();
    } finally {
      await served.stop();
    }
  }, 180_000);

  it('refuses to start without tokens, or with a tokens file inside the workspace', async () => {
    const root = await workspaceWithPages();
    const { runCli } = await import('../helpers/cli.js');
    const empty = await runCli(['--root', root, 'serve', '--port', '0', '--tokens', await tokensFile()]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no token for this wiki in .*wiki serve token add/);
    const inside = await runCli(['--root', root, 'serve', 'token', 'add', 'x', '--max-visibility', 'public', '--tokens', path.join(root, 'tokens.json')]);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/inside the workspace/);
  }, 60_000);
});
