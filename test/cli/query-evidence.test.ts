import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { firstUserText } from '../helpers/fake-llm-record.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, pageText, patchConfig, writeStep } from './cron-fixtures.js';

/**
 * Retrieval-first `wiki query`, measured from the request bodies the CLI sends: the first
 * request carries the evidence pack, the report its chain and cited pages, a question the
 * pack answers takes one model call, and a question nothing matches takes none.
 */

const PAGES: Record<string, string> = {
  'raw/attention-paper.md': '# Attention paper\n\nAttention weighs tokens.\n',
  'wiki/sources/attention-paper.md': pageText('source', 'attention-paper', { refs: ['attention'], body: 'The paper that introduced [[attention]] at scale.' }),
  'wiki/concepts/attention.md': pageText('concept', 'attention', {
    refs: ['transformer'],
    sources: ['raw/attention-paper.md'],
    body: 'Attention weighs every token against every other token by a softmax over scaled query-key scores. <!-- from: raw/attention-paper.md#L3 -->\n\nSee [[multi-head-attention]] and [[quokka-draft]].',
  }),
  'wiki/concepts/transformer.md': pageText('concept', 'transformer', {
    summary: 'An architecture of attention layers.',
    refs: ['positional-encoding'],
    sources: ['raw/attention-paper.md'],
    body: 'The transformer stacks attention layers with feed-forward blocks.',
  }),
  'wiki/concepts/positional-encoding.md': pageText('concept', 'positional-encoding', {
    sources: ['raw/attention-paper.md'],
    body: 'Positions are added as sine waves of growing wavelength.',
  }),
  'wiki/concepts/multi-head-attention.md': pageText('concept', 'multi-head-attention', {
    sources: ['raw/attention-paper.md'],
    body: 'Several attention heads run in parallel over projections.',
  }),
  // Never surfaced: not in the pack even though attention links to it.
  'wiki/concepts/quokka-draft.md': '---\ntitle: Quokka draft\nsummary: A draft\ntype: concept\nusage_mode: never\n---\n\nQUOKKA-SECRET attention notes.\n',
};

async function evidenceWorkspace(): Promise<string> {
  const root = await freshWorkspace();
  for (const [file, text] of Object.entries(PAGES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

interface QueryJson {
  state: string;
  answer: string;
  found: boolean;
  cited: string[];
  turns: number;
  evidence: { pages: Array<{ key: string; depth: number }>; chain: string[]; chars: number };
  saved?: { path: string; by: string };
  notSaved?: string;
}

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(['anthropic', 'openai'] as const)('wiki query, retrieval first (%s wire)', (api) => {
  it('sends the evidence pack in the first request, answers in one model call, and reports the chain and cited pages', async () => {
    const root = await evidenceWorkspace();
    // One seed, so that the pages behind it come through its links: depth 1, then depth 2.
    await patchConfig(root, { query: { seeds: 1 } });
    server = await startFakeLlmServer([{ text: 'Attention is a softmax over scaled query-key scores [[attention]], stacked in the [[transformer]].' }]);
    const result = await runCli(['query', 'how does attention weigh tokens?', '--json'], { cwd: root, env: server.env(api) });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const first = firstUserText(server.requests[0]!.body);
    expect(first).toContain('Question: how does attention weigh tokens?');
    expect(first).toContain('# Evidence from the wiki');
    expect(first).toContain('- attention --refs--> transformer');
    // A page one link away enters only when it matches the question: positional encoding does not.
    expect(first).not.toContain('## [[positional-encoding]]');
    expect(first).not.toContain('Positions are added as sine waves');
    // Passages keep their citations, so a saved answer can cite source lines without reading the page again.
    expect(first).toContain('Attention weighs every token against every other token by a softmax over scaled query-key scores. <!-- from: raw/attention-paper.md#L3 -->');
    expect(first).not.toContain('QUOKKA-SECRET');
    // The page list ranks by the question too: the best match is listed first.
    expect(first).toMatch(/may be linked with \[\[key\]\]:\n- attention \(concept, wiki\/concepts\/attention\.md\)/);
    const report = JSON.parse(result.stdout) as QueryJson;
    expect(report).toMatchObject({ state: 'answered', found: true, cited: ['attention', 'transformer'], turns: 1 });
    expect(report.evidence.chain).toEqual(['attention --refs--> transformer', 'attention --links--> multi-head-attention']);
    expect(report.evidence.pages.map((p) => p.key)).not.toContain('quokka-draft');
    expect(report.evidence.pages.map((p) => [p.key, p.depth])).toEqual([
      ['attention', 0],
      ['transformer', 1],
      ['multi-head-attention', 1],
    ]);
    const human = await startFakeLlmServer([{ text: 'A softmax over scores [[attention]].' }]);
    try {
      const text = await runCli(['query', 'how does attention weigh tokens?', '--explain'], { cwd: root, env: human.env(api) });
      expect(text.stdout).toMatch(/evidence chain:\n\s+attention --refs--> transformer/);
      expect(text.stdout).toContain('cited: attention');
    } finally {
      await human.close();
    }
  });
});

/** The system prompt of a recorded request, for either wire format. */
function systemText(body: Record<string, unknown>): string {
  if (body.system !== undefined) {
    const system = body.system as string | Array<{ text?: string }>;
    return typeof system === 'string' ? system : system.map((block) => block.text ?? '').join('\n');
  }
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  return messages
    .filter((message) => message.role === 'system')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n');
}

describe.each(['anthropic', 'openai'] as const)('wiki query --save: one ending asked for (%s wire)', (api) => {
  it('the run message and the schema.md workflow in the system prompt agree: the answer ends the page, the tool adds the Evidence section', async () => {
    const root = await evidenceWorkspace();
    await patchConfig(root, { query: { seeds: 1 } });
    server = await startFakeLlmServer([{ text: 'Attention is a softmax over scaled query-key scores [[attention]].' }]);
    const result = await runCli(['query', 'how does attention weigh tokens?', '--save', '--json'], { cwd: root, env: server.env(api) });
    expect(result.code, result.stderr).toBe(0);
    const body = server.requests[0]!.body;
    const ending = 'the tool adds';
    expect(firstUserText(body)).toContain(`End the page with the answer: ${ending} its "## Evidence" section (the pages the answer cites and the links among them), so do not write one.`);
    expect(systemText(body)).toMatch(/End the page with the answer: the tool adds an\s+`## Evidence` section \(the pages the answer cites and the links among them\), so do not write one\./);
    expect(firstUserText(body)).not.toMatch(/lists the evidence chain lines you relied on/);
    // The chain is the path followed from the seeds, a few lines at most.
    const chain = firstUserText(body).split('\n').filter((line) => / --(refs|links)--> /.test(line) && line.startsWith('- '));
    expect(chain.length).toBeGreaterThan(0);
    expect(chain.length).toBeLessThanOrEqual(10);
  });
});

describe('wiki query: the pack holds what this user may see', () => {
  it('--user alice: her scratch page shadows the team page of the same key; another user\'s scratch page never comes', async () => {
    const root = await evidenceWorkspace();
    const scratch = {
      'wiki/user/alice/concepts/attention.md': pageText('concept', 'attention', { body: 'ALICE-SCRATCH: attention weighs tokens as routing.' }),
      'wiki/user/bob/concepts/bob-note.md': pageText('concept', 'bob-note', { body: 'BOB-SCRATCH: attention weighs tokens by luck.' }),
    };
    for (const [file, text] of Object.entries(scratch)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    server = await startFakeLlmServer([{ text: 'Routing [[attention]].' }]);
    const result = await runCli(['--user', 'alice', 'query', 'how does attention weigh tokens?', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    const first = firstUserText(server.requests[0]!.body);
    expect(first).toContain('ALICE-SCRATCH');
    expect(first).not.toContain('BOB-SCRATCH');
    expect(first).not.toContain('Attention weighs every token against every other token');
  });
});

describe('wiki query: nothing in the wiki', () => {
  it('no page matches: an explicit answer, state nothing-in-wiki, exit 1, and no model call', async () => {
    const root = await evidenceWorkspace();
    server = await startFakeLlmServer([{ text: 'should never be asked' }]);
    const json = await runCli(['query', 'xylophonic zanzibar?', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(json.code, json.stderr).toBe(1);
    const report = JSON.parse(json.stdout) as QueryJson;
    expect(report).toMatchObject({ state: 'nothing-in-wiki', found: false, cited: [], turns: 0, evidence: { pages: [], chain: [] } });
    expect(report.answer).toMatch(/^Nothing in the wiki about this/);
    const human = await runCli(['query', 'xylophonic zanzibar?', '--save'], { cwd: root, env: server.env('anthropic') });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/Nothing in the wiki about this: no page matches “xylophonic zanzibar\?”/);
    expect(human.stdout).toMatch(/not saved: nothing in the wiki about this/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('wiki query --save files the evidence the answer cites', () => {
  it('the page wiki files lists the pages the answer cites and the links among them, not the rest of the pack', async () => {
    const root = await evidenceWorkspace();
    // One seed, so that the pack holds the pages behind it too (transformer, multi-head-attention, positional-encoding).
    await patchConfig(root, { query: { seeds: 1 } });
    server = await startFakeLlmServer([{ text: 'A softmax over scaled query-key scores [[attention]], stacked in the [[transformer]].' }]);
    const result = await runCli(['query', 'how does attention weigh tokens?', '--save', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as QueryJson;
    expect(report.saved?.by).toBe('wiki');
    expect(report.evidence.pages.map((page) => page.key)).toContain('multi-head-attention');
    const saved = await readFile(path.join(root, report.saved!.path), 'utf8');
    expect(saved).toMatch(/## Evidence\n\nPages cited: `attention`, `transformer`\n\n- `attention --refs--> transformer`$/m);
    expect(saved).not.toMatch(/multi-head-attention|positional-encoding|Pages consulted/);
    expect(saved).toMatch(/^refs: \[attention, transformer\]$/m);
    expect(server.requests).toHaveLength(1);
  });
});

describe.each(['anthropic', 'openai'] as const)('wiki query --save: the model searched, read and saved (%s wire)', (api) => {
  it('the Evidence section lists the pages it cites, also those it found itself, and cited: leaves the saved page out', async () => {
    const root = await evidenceWorkspace();
    await patchConfig(root, { query: { seeds: 1 } });
    // A page the pack does not reach (nothing links to it): the model finds it with its tools.
    await writeFile(
      path.join(root, 'wiki/concepts/softmax.md'),
      pageText('concept', 'softmax', { refs: ['attention'], sources: ['raw/attention-paper.md'], body: 'Softmax turns scores into weights that sum to one; used by [[attention]].' }),
    );
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'search_wiki', arguments: { query: 'softmax weights' } }, { name: 'read_file', arguments: { path: 'wiki/concepts/softmax.md' } }] },
      writeStep('concept', 'attention-weighting', { sources: ['raw/attention-paper.md'], body: 'A [[softmax]] over scores, see [[attention]].' }),
      { text: 'A [[softmax]] over scaled scores [[attention]]; saved as [[attention-weighting]].' },
    ]);
    const result = await runCli(['query', 'how does attention weigh tokens?', '--save', '--json'], { cwd: root, env: server.env(api) });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as QueryJson;
    expect(report.saved).toEqual({ path: 'wiki/concepts/attention-weighting.md', by: 'model', created: true });
    expect(report.evidence.pages.map((page) => page.key)).not.toContain('softmax');
    expect(report.cited).toEqual(['softmax', 'attention']);
    const saved = await readFile(path.join(root, report.saved!.path), 'utf8');
    expect(saved).toMatch(/^A \[\[softmax\]\] over scores, see \[\[attention\]\]\.\n\n## Evidence\n\nPages cited: `softmax`, `attention`\n\n- `softmax --refs--> attention`$/m);
    expect(saved).not.toMatch(/transformer|multi-head-attention|attention-weighting`/);
    const text = await runCli(['query', 'how does attention weigh tokens?', '--save'], {
      cwd: root,
      env: (await restart([
        writeStep('concept', 'attention-weighting-2', { sources: ['raw/attention-paper.md'], body: 'Weights by [[softmax]].' }),
        { text: 'Weights by [[softmax]]; saved as [[attention-weighting-2]].' },
      ])).env(api),
    });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^cited: softmax$/m);
  });
});

async function restart(steps: Parameters<typeof startFakeLlmServer>[0]): Promise<FakeLlmServer> {
  await server?.close();
  server = await startFakeLlmServer(steps);
  return server;
}

describe('wiki query --save: a long Evidence section', () => {
  it('lists at most ten links among the cited pages and says how many more there are', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw', 'rivers.md'), '# Rivers\n\nRivers join rivers.\n');
    const keys = Array.from({ length: 13 }, (_, i) => `river-${String.fromCharCode(97 + i)}`);
    for (const [i, key] of keys.entries()) {
      const next = keys[i + 1];
      await writeFile(
        path.join(root, 'wiki/concepts', `${key}.md`),
        pageText('concept', key, { sources: ['raw/rivers.md'], ...(next ? { refs: [next] } : {}), body: `River ${key} flows into the delta.` }),
      );
    }
    server = await startFakeLlmServer([{ text: `Every river flows into the delta: ${keys.map((key) => `[[${key}]]`).join(', ')}.` }]);
    const result = await runCli(['query', 'where does river flow?', '--save', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as QueryJson;
    const saved = await readFile(path.join(root, report.saved!.path), 'utf8');
    const evidence = saved.slice(saved.indexOf('## Evidence'));
    expect(evidence.split('\n').filter((line) => line.startsWith('- `'))).toHaveLength(10);
    expect(evidence).toContain('- … and 2 more link(s) among the cited pages');
  });
});
