import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageDetail, PageList } from '../../src/mcp/page-views.js';
import type { SearchResult } from '../../src/search/index.js';
import type { Finding } from '../../src/wiki/validate/finding.js';
import { cloneWorkspace, initWorkspace } from '../helpers/cli.js';
import { connectWiki, type McpSession } from './client.js';
import { writeSampleWiki } from './sample.js';

interface SearchAnswer {
  found: boolean;
  query: string;
  results: SearchResult[];
  warnings: unknown[];
}
interface LintAnswer {
  found: boolean;
  findings: Finding[];
  total: number;
}
interface AskAnswer {
  question: string;
  found: boolean;
  citations: string[];
  index: string[];
  pages: Array<{ key: string; passages: string[] }>;
  chain: string[];
  edges: Array<{ from: string; to: string; kind: string }>;
}

/** Everything by which a private page could be recognised: key, title, path, a word only it holds. */
const PRIVATE_MARKS = ['classified-plan', 'Classified Plan Zeta', 'wiki/concepts/classified-plan.md', 'zanzibar'];
const NEVER_MARKS = ['hidden-draft', 'Hidden Draft Quokka', 'quokka'];

const page = (fields: string, body: string): string => `---\n${fields}\n---\n${body}\n`;

const ACCESS_PAGES: Record<string, string> = {
  // A private page: it links to a public page (so it is a backlink there) and breaks a rule (so lint reports it).
  'wiki/concepts/classified-plan.md': page(
    'title: Classified Plan Zeta\ntype: concept\nvisibility: private\nsources: [raw/attention-paper.md]',
    '# Classified Plan Zeta\n\nThe zanzibar rollout builds on the [[transformer]].',
  ),
  // A public page that links to the private one, in its refs and its body.
  'wiki/concepts/roadmap.md': page(
    'title: Roadmap\nsummary: What comes next for attention models\ntype: concept\nvisibility: public\nrefs: [classified-plan, transformer]\nsources: [raw/attention-paper.md]',
    '# Roadmap\n\nFirst the [[transformer]].\nThen the [[classified-plan]] with its secret schedule.\nAnd a [[hidden-draft]] nobody lists.',
  ),
  'wiki/concepts/hidden-draft.md': page(
    'title: Hidden Draft Quokka\nsummary: A draft about the quokka survey\ntype: concept\nusage_mode: never\nsources: [raw/attention-paper.md]',
    '# Hidden draft\n\nThe quokka survey is not ready.',
  ),
  // A page whose frontmatter does not parse: its level cannot be read, so it is never served.
  'wiki/concepts/unreadable-level.md': '---\ntitle: [wombat\nvisibility: public\n---\nThe wombat census.\n',
  'wiki/user/alice/entities/transformer.md': page(
    'title: Transformer (Alice\'s notes)\nsummary: Alice\'s scratch notes on the transformer\ntype: entity\nsources: [raw/attention-paper.md]',
    '# Transformer\n\nAlicenotes: the encoder stack, see [[multi-head-attention]].',
  ),
  'wiki/user/bob/concepts/bob-idea.md': page(
    'title: Bob idea\nsummary: Bob\'s private hunch about bobword\ntype: concept\nsources: [raw/attention-paper.md]',
    '# Bob idea\n\nThe bobword hunch.',
  ),
};

async function writeAccessWiki(root: string, extra: Record<string, string> = {}): Promise<void> {
  await writeSampleWiki(root);
  for (const [file, text] of Object.entries({ ...ACCESS_PAGES, ...extra })) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

let template: string;
beforeAll(async () => {
  template = await initWorkspace();
  await writeAccessWiki(template);
});

/** Ask every tool everything that could reveal a hidden page. */
async function askEverything(session: McpSession): Promise<void> {
  await session.json<PageList>('list_pages', { limit: 500 });
  await session.json<PageList>('list_pages', { type: 'concept', limit: 500 });
  for (const query of ['zanzibar Classified Plan Zeta rollout', 'quokka survey Hidden Draft', 'wombat census', 'bobword hunch', 'transformer']) {
    await session.json<SearchAnswer>('search_wiki', { query, limit: 50 });
    await session.json<AskAnswer>('ask_wiki', { question: query });
  }
  await session.json<PageDetail>('read_page', { key: 'roadmap' });
  await session.json<PageDetail>('read_page', { key: 'transformer' });
  await session.json<PageDetail>('read_page', { key: 'index' });
  await session.json<LintAnswer>('lint_report', { limit: 1000 });
}

/** Every answer of the session, less the query or question each echoes (the caller's own words). */
function answersWithoutEchoes(session: McpSession): string {
  return session.transcript.map((text) => text.replace(/"(query|question)":"[^"]*"/g, '"$1":"…"')).join('\n');
}

describe('wiki mcp at the default cap (internal)', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await connectWiki(await cloneWorkspace(template));
  });
  afterAll(async () => session?.close());

  it('never shows a private page, a never page, an unreadable one or a user scope: not as a title, key, path or backlink', async () => {
    await askEverything(session);
    const everything = answersWithoutEchoes(session);
    for (const mark of [...PRIVATE_MARKS, ...NEVER_MARKS, 'unreadable-level', 'wombat', 'wiki/user/', 'Alicenotes', 'bobword']) {
      expect(everything, mark).not.toContain(mark);
    }
  });

  it('serves the public page linking to the private one without the link, its line or its ref', async () => {
    const roadmap = await session.json<PageDetail & { found: boolean }>('read_page', { key: 'roadmap' });
    expect(roadmap.found).toBe(true);
    expect(roadmap.links).toEqual(['transformer']);
    expect(roadmap.missingLinks).toEqual([]);
    expect(roadmap.frontmatter.refs).toEqual(['transformer']);
    expect(roadmap.body).toContain('First the [[transformer]].');
    expect(roadmap.body).not.toContain('secret schedule');
    const transformer = await session.json<PageDetail>('read_page', { key: 'transformer' });
    expect(transformer.backlinks).toContain('roadmap');
  });

  it('answers a word only a withheld page holds exactly as an unknown word (no semantic-lane oracle)', async () => {
    for (const [word, unknown] of [['zanzibar', 'xylophonic'], ['quokka', 'xylophonia']] as const) {
      const hidden = await session.json<SearchAnswer>('search_wiki', { query: word });
      const absent = await session.json<SearchAnswer>('search_wiki', { query: unknown });
      expect({ ...hidden, query: '' }).toEqual({ ...absent, query: '' });
      expect(hidden).toMatchObject({ found: false, results: [] });
      const asked = await session.json<AskAnswer>('ask_wiki', { question: word });
      expect(asked).toMatchObject({ found: false, pages: [], citations: [] });
    }
    // Good work: a served word still finds its pages, semantic neighbours included.
    expect((await session.json<SearchAnswer>('search_wiki', { query: 'transformer' })).found).toBe(true);
  });

  it('answers a hidden key as a key that does not exist, and a search for it as found: false with the query echoed', async () => {
    for (const key of ['classified-plan', 'hidden-draft', 'unreadable-level', 'bob-idea']) {
      const answer = await session.json<{ found: boolean; key: string; closeMatches: string[] }>('read_page', { key });
      expect(answer).toEqual({
        found: false,
        key,
        closeMatches: [],
        hint: 'no page has this key; use search_wiki or list_pages to find pages',
      });
    }
    const answer = await session.json<SearchAnswer>('search_wiki', { query: 'xylophonic' });
    expect(answer).toMatchObject({ found: false, query: 'xylophonic', results: [] });
    const asked = await session.json<AskAnswer>('ask_wiki', { question: 'xylophonic' });
    expect(asked).toMatchObject({ found: false, question: 'xylophonic', pages: [], citations: [] });
    const list = await session.json<PageList & { found: boolean }>('list_pages', { tag: 'no-such-tag' });
    expect(list).toMatchObject({ found: false, total: 0, filters: { tag: 'no-such-tag' } });
  });

  it('ask_wiki returns the evidence pack: the relevant pages with their best passages, each cited by key, the chain of links followed, and their index entries', async () => {
    const asked = await session.json<AskAnswer>('ask_wiki', { question: 'how do attention heads run in parallel?' });
    expect(asked.found).toBe(true);
    expect(asked.citations).toContain('multi-head-attention');
    expect(asked.pages.map((p) => p.key)).toEqual(asked.citations);
    expect(asked.pages.find((p) => p.key === 'multi-head-attention')?.passages.join('\n')).toContain('Each head applies');
    // The chain is the links followed from the search matches: each line reached a page of the pack, ten at most.
    expect(asked.chain.length).toBeLessThanOrEqual(10);
    for (const line of asked.chain) expect(asked.citations.some((key) => line.endsWith(`--> ${key}`))).toBe(true);
    expect(asked.edges.every((edge) => asked.citations.includes(edge.from) && asked.citations.includes(edge.to))).toBe(true);
  });
});

describe('wiki mcp --max-visibility private', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await connectWiki(await cloneWorkspace(template), { args: ['--max-visibility', 'private'] });
  });
  afterAll(async () => session?.close());

  it('serves the private page through every tool, and still neither the never page nor the unreadable one', async () => {
    const list = await session.json<PageList>('list_pages', { limit: 500 });
    const keys = list.pages.map((p) => p.key);
    expect(keys).toContain('classified-plan');
    expect(keys).not.toContain('hidden-draft');
    expect(keys).not.toContain('unreadable-level');
    const answer = await session.json<SearchAnswer>('search_wiki', { query: 'zanzibar rollout' });
    expect(answer.found).toBe(true);
    expect(answer.results[0]?.key).toBe('classified-plan');
    const plan = await session.json<PageDetail>('read_page', { key: 'classified-plan' });
    expect(plan.title).toBe('Classified Plan Zeta');
    const roadmap = await session.json<PageDetail>('read_page', { key: 'roadmap' });
    expect(roadmap.links).toEqual(['classified-plan', 'transformer']);
    expect((await session.json<PageDetail>('read_page', { key: 'transformer' })).backlinks).toContain('classified-plan');
    const lint = await session.json<LintAnswer>('lint_report', { limit: 1000 });
    expect(lint.findings.some((f) => f.path === 'wiki/concepts/classified-plan.md' && f.rule === 'required-field')).toBe(true);
    // The never page stays a valid link target and is still linted.
    expect(lint.findings.some((f) => f.rule === 'broken-link' && f.message.includes('hidden-draft'))).toBe(false);
    const nothing = await session.json<SearchAnswer>('search_wiki', { query: 'quokka survey' });
    expect(nothing.results.map((r) => r.key)).not.toContain('hidden-draft');
  });
});

describe('wiki mcp for a user (WIKI_USER)', () => {
  it("resolves a key to the user's scratch page first, and shows no other user's scope", async () => {
    const alice = await connectWiki(await cloneWorkspace(template), { env: { WIKI_USER: 'alice' } });
    try {
      const transformer = await alice.json<PageDetail>('read_page', { key: 'transformer' });
      expect(transformer.path).toBe('wiki/user/alice/entities/transformer.md');
      expect(transformer.body).toContain('Alicenotes');
      const answer = await alice.json<SearchAnswer>('search_wiki', { query: 'alicenotes encoder stack' });
      expect(answer.results[0]?.path).toBe('wiki/user/alice/entities/transformer.md');
      await askEverything(alice);
      expect(answersWithoutEchoes(alice)).not.toContain('bobword');
    } finally {
      await alice.close();
    }
  });

  it('refuses a cap the schema does not declare, naming the levels', async () => {
    const session = connectWiki(template, { args: ['--max-visibility', 'secret'] });
    await expect(session).rejects.toThrow();
  });
});

describe('the answer budget (mcp.maxChars)', () => {
  it('cuts every answer to the budget and says what it cut and from how much', async () => {
    const root = await cloneWorkspace(template);
    const long = Array.from({ length: 400 }, (_, i) => `Line ${i} about attention budgets and long pages.`).join('\n');
    await writeFile(
      path.join(root, 'wiki/concepts/long-page.md'),
      page('title: Long page\nsummary: A very long page about attention budgets\ntype: concept\nsources: [raw/attention-paper.md]', long),
    );
    await writeFile(path.join(root, 'wiki.config.json'), JSON.stringify({ search: { embedder: { kind: 'builtin' } }, mcp: { maxChars: 2000 } }));
    const session = await connectWiki(root);
    try {
      await askEverything(session);
      const read = await session.call('read_page', { key: 'long-page' });
      const asked = await session.call('ask_wiki', { question: 'attention budgets long pages' });
      for (const text of session.transcript) expect(text.length).toBeLessThanOrEqual(2000);
      // ask_wiki's pack is cut to the budget as it is built (the long page gives only its best passages).
      const pack = JSON.parse(asked.text) as AskAnswer;
      const longPassages = pack.pages.find((p) => p.key === 'long-page')?.passages.join('\n\n') ?? '';
      expect(longPassages.length, asked.text).toBeGreaterThan(0);
      expect(longPassages.length).toBeLessThan(long.length);
      for (const answer of [read]) {
        const parsed = JSON.parse(answer.text) as { truncated?: { originalChars: number; maxChars: number; cut: string[] } };
        expect(parsed.truncated?.maxChars).toBe(2000);
        expect(parsed.truncated?.originalChars).toBeGreaterThan(2000);
        expect(parsed.truncated?.cut.length).toBeGreaterThan(0);
      }
      expect((JSON.parse(read.text) as { truncated: { cut: string[] } }).truncated.cut[0]).toMatch(/^body: \d+ of \d+ characters cut$/);
    } finally {
      await session.close();
    }
  });
});
