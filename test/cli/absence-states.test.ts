import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { connectWiki } from '../mcp/client.js';
import { freshWorkspace, pageText, patchConfig } from './cron-fixtures.js';

/**
 * Never a silent absence (issue 17, item 5): each failure state, on each surface that
 * searches — `wiki search` (--json and human), `wiki query` and `wiki mcp` through the SDK's
 * own client — is an error naming what to set up or what failed, or answers with a warning
 * naming the lane and its endpoint. Never an empty list.
 */

/** An embeddings endpoint on 127.0.0.1 that answers every request with a 500. */
let failing: http.Server;
let failingUrl: string;
/** An address on 127.0.0.1 where nothing listens: connections are refused. */
let refusingUrl: string;

beforeAll(async () => {
  failing = http.createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'embedding backend exploded' } }));
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/v1`;
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refusingUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(async () => new Promise<void>((resolve) => failing.close(() => resolve())));

async function workspace(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw', 'paper.md'), '# A paper\n\nAbout attention.\n');
  await mkdir(path.join(root, 'wiki', 'concepts'), { recursive: true });
  await writeFile(path.join(root, 'wiki/concepts/attention.md'), pageText('concept', 'attention', { body: 'Attention weighs tokens by relevance.' }));
  await patchConfig(root, { maxRetries: 0 });
  return root;
}

type Expectation =
  | { kind: 'warning'; endpoint: () => string; reason: RegExp }
  | { kind: 'error'; message: RegExp }
  | { kind: 'answers' };

interface State {
  name: string;
  /** The workspace in this state. */
  make: () => Promise<string>;
  expected: Expectation;
  /** What query is expected to do, when it differs (a held lock only stops a query that writes). */
  query?: { args: string[]; expected: Expectation };
}

const embedder = (baseUrl: () => string, weights: Record<string, number> = {}) => async (): Promise<string> => {
  const root = await workspace();
  await patchConfig(root, { search: { weights, embedder: { kind: 'openai', baseUrl: baseUrl() } } });
  return root;
};

const STATES: State[] = [
  {
    name: 'not configured: no workspace',
    make: () => tempDir(),
    expected: { kind: 'error', message: /wiki init/ },
  },
  {
    name: 'not configured: every lane off',
    make: async () => {
      const root = await workspace();
      await patchConfig(root, { search: { weights: { lexical: 0, token: 0 }, embedder: { kind: 'none' } } });
      return root;
    },
    expected: { kind: 'error', message: /search is not set up: every lane is off \(lexical skipped: weight is 0; semantic skipped: .*; token skipped: weight is 0\).*search\.weights\.lexical/ },
  },
  {
    name: 'one lane failing: the embedding endpoint answers 500',
    make: embedder(() => failingUrl),
    expected: { kind: 'warning', endpoint: () => failingUrl, reason: /500/ },
  },
  {
    name: 'one lane failing: the embedding endpoint refuses connections',
    make: embedder(() => refusingUrl),
    expected: { kind: 'warning', endpoint: () => refusingUrl, reason: /connection|ECONNREFUSED/i },
  },
  {
    name: 'configured but failing: the only lane that could answer is down',
    make: embedder(() => failingUrl, { lexical: 0, token: 0 }),
    expected: { kind: 'error', message: /search failed: no lane could answer \(lexical skipped: weight is 0; semantic failed: 500/ },
  },
  {
    name: 'configured but failing: the index cannot be read or written',
    make: async () => {
      const root = await workspace();
      await mkdir(path.join(root, '.wiki', 'search', 'index.bin'), { recursive: true });
      return root;
    },
    expected: { kind: 'error', message: /\.wiki\/search\/index\.bin is a folder where the tool keeps a file.*mv \.wiki\/search\/index\.bin/ },
  },
  {
    name: 'configured but failing: another run holds the lock',
    make: async () => {
      const root = await workspace();
      const lock = { pid: process.pid, command: 'ingest', startedAt: new Date().toISOString(), host: os.hostname() };
      await mkdir(path.join(root, '.wiki'), { recursive: true });
      await writeFile(path.join(root, '.wiki', 'lock'), JSON.stringify(lock));
      return root;
    },
    // Searching only reads: it neither waits for nor fails on the lock.
    expected: { kind: 'answers' },
    query: { args: ['--save'], expected: { kind: 'error', message: /another wiki run holds the lock: ingest \(pid \d+/ } },
  },
];

/** What one surface said: an error's text, or hits (keys) and lane warnings. */
interface Observed {
  error?: string;
  keys: string[];
  warnings: Array<{ lane: string; endpoint?: string; message: string }>;
  /** The human rendering, where there is one. */
  human?: string;
}

type Answer = { results?: Array<{ key: string }>; pages?: Array<{ key: string }>; warnings: Observed['warnings'] };

const SURFACES: Record<string, (root: string, state: State) => Promise<Observed>> = {
  'wiki search': async (root) => {
    const json = await runCli(['search', 'attention', '--json'], { cwd: root });
    const human = await runCli(['search', 'attention'], { cwd: root });
    const parsed = JSON.parse(json.stdout || '{}') as Answer & { error?: { message: string } };
    expect(human.code).toBe(json.code);
    if (json.code !== 0) return { error: `${parsed.error?.message ?? ''} ${human.stderr}`, keys: [], warnings: [] };
    return { keys: (parsed.results ?? []).map((r) => r.key), warnings: parsed.warnings, human: human.stdout };
  },
  'wiki query': async (root, state) => {
    const server = await startFakeLlmServer([
      { toolCalls: [{ name: 'search_wiki', arguments: { query: 'attention' } }] },
      { text: 'Attention weighs tokens [[attention]].' },
    ]);
    try {
      const args = ['query', 'what is attention?', ...(state.query?.args ?? []), '--json'];
      const result = await runCli(args, { cwd: root, env: server.env('anthropic') });
      if (result.code !== 0) return { error: result.stderr, keys: [], warnings: [] };
      const report = JSON.parse(result.stdout) as { warnings?: Observed['warnings']; cited?: string[] };
      // The model's own search: a failure reaches the model as a tool error, never as an empty list.
      const searched = server.requests[1]?.toolResults[0];
      if (searched?.isError) return { error: searched.content, keys: [], warnings: report.warnings ?? [] };
      return { keys: report.cited ?? [], warnings: report.warnings ?? [] };
    } finally {
      await server.close();
    }
  },
  'wiki mcp': async (root) => {
    let session;
    try {
      session = await connectWiki(root);
    } catch (error) {
      return { error: `${error instanceof Error ? error.message : String(error)}`, keys: [], warnings: [] };
    }
    try {
      const observed: Observed[] = [];
      for (const [tool, args] of [['search_wiki', { query: 'attention' }], ['ask_wiki', { question: 'what is attention?' }]] as const) {
        const { text, isError } = await session.call(tool, args);
        if (isError) observed.push({ error: text, keys: [], warnings: [] });
        else {
          const answer = JSON.parse(text) as Answer;
          observed.push({ keys: (answer.results ?? answer.pages ?? []).map((r) => r.key), warnings: answer.warnings });
        }
      }
      // Both tools tell the same state.
      expect(observed[1]?.error === undefined).toBe(observed[0]?.error === undefined);
      return observed[0] as Observed;
    } finally {
      await session.close();
    }
  },
};

const NOT_CONFIGURED_MCP = /wiki init|schema\.md|Connection closed/;

describe('never a silent absence: each state on each surface', () => {
  const cases = STATES.flatMap((state) => Object.keys(SURFACES).map((surface) => ({ state, surface, name: state.name })));
  it.each(cases)('$name — $surface', async ({ state, surface }) => {
    const root = await state.make();
    const observed = await (SURFACES[surface] as (root: string, state: State) => Promise<Observed>)(root, state);
    const expected = surface === 'wiki query' && state.query ? state.query.expected : state.expected;
    if (expected.kind === 'error') {
      expect(observed.error, JSON.stringify(observed)).toBeDefined();
      const message = surface === 'wiki mcp' && state.name.endsWith('no workspace') ? NOT_CONFIGURED_MCP : expected.message;
      expect(observed.error).toMatch(message);
      return;
    }
    expect(observed.error, observed.error).toBeUndefined();
    expect(observed.keys).toContain('attention');
    if (expected.kind === 'answers') {
      expect(observed.warnings).toEqual([]);
      return;
    }
    expect(observed.warnings).toEqual([
      expect.objectContaining({ lane: 'semantic', endpoint: expect.stringContaining(expected.endpoint()), message: expect.stringMatching(expected.reason) }),
    ]);
    if (observed.human !== undefined) {
      expect(observed.human).toContain(`warning: the semantic lane (text-embedding-3-small at ${expected.endpoint()}) failed and was left out`);
    }
  });
});
