import { link, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWiki, type McpSession } from '../mcp/client.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * Issue 13, item 2, through the built CLI: a page under wiki/ that is a hard link to .env,
 * .git/config or a file outside the workspace gives its content to no surface — not the
 * model (run context, search_wiki, read_file), not `wiki search`, not `wiki mcp` — and the
 * user is told once which pages were left out and to copy them instead.
 */

const SECRET = 'okapi-hardlink-secret';
// A well-formed page, so that anything that loaded it would show its title, summary and body.
const LEAKY = pageText('concept', 'leaky', { title: 'Okapi notes', summary: `Okapi ${SECRET}`, body: `The okapi ${SECRET}.` });

const serve = fakeServers();
let root: string;

beforeAll(async () => {
  root = await freshWorkspace();
  await writeFile(path.join(root, 'wiki/concepts/okapi.md'), pageText('concept', 'okapi', { body: 'The okapi is a forest giraffe.' }));
  await writeFile(path.join(root, '.env'), LEAKY);
  await mkdir(path.join(root, '.git'), { recursive: true });
  await writeFile(path.join(root, '.git/config'), LEAKY);
  const outside = await tempDir('wiki-outside-');
  await writeFile(path.join(outside, 'notes.md'), LEAKY);
  await link(path.join(root, '.env'), path.join(root, 'wiki/concepts/env-link.md'));
  await link(path.join(root, '.git/config'), path.join(root, 'wiki/concepts/git-link.md'));
  await link(path.join(outside, 'notes.md'), path.join(root, 'wiki/concepts/outside-link.md'));
});

const LINKED = ['wiki/concepts/env-link.md', 'wiki/concepts/git-link.md', 'wiki/concepts/outside-link.md'];

describe('wiki search', () => {
  it('finds no hard-linked page and warns once, naming each and saying to copy it', async () => {
    const result = await runCli(['search', `okapi ${SECRET}`], { cwd: root });
    expect(result.code).toBe(0);
    const output = result.stdout + result.stderr;
    expect(output.replaceAll(`okapi ${SECRET}`, '')).not.toContain(SECRET);
    expect(output.match(/hard link/g)).toHaveLength(1);
    for (const linked of LINKED) expect(output).toContain(linked);
    expect(output).toMatch(/copy the file into wiki\/ instead of linking it/);
  });

  it('--json lists them under hardLinked and gives no content of theirs', async () => {
    const result = await runCli(['search', 'okapi', '--json'], { cwd: root });
    const json = JSON.parse(result.stdout) as { results: Array<{ path: string }>; hardLinked: string[] };
    expect(json.hardLinked.sort()).toEqual(LINKED);
    expect(json.results.map((r) => r.path)).toEqual(['wiki/concepts/okapi.md']);
    expect(result.stdout).not.toContain(SECRET);
  });
});

describe('the model', () => {
  it('sees none of it: not in its run context, search_wiki, read_file or list results', async () => {
    const server = await serve((request) =>
      request.toolResults.length > 0
        ? { text: 'The okapi is a forest giraffe.' }
        : {
            toolCalls: [
              { name: 'search_wiki', arguments: { query: `okapi ${SECRET}` } },
              ...LINKED.map((p) => ({ name: 'read_file', arguments: { path: p } })),
              { name: 'read_file', arguments: { path: 'wiki/index.md' } },
            ],
          },
    );
    const result = await runCli(['query', 'what is an okapi?'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    expect(server.requests.length).toBe(2);
    for (const request of server.requests) {
      // The model's own tool call (its query) is echoed back in the conversation; drop it.
      expect(JSON.stringify(request.body).replaceAll(`okapi ${SECRET}`, '')).not.toContain(SECRET);
    }
    const results = server.requests[1]?.toolResults ?? [];
    expect(results.filter((r) => /hard link.*Copy the file/s.test(r.content))).toHaveLength(LINKED.length);
  });
});

describe('wiki mcp', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await connectWiki(root);
  });
  afterAll(async () => {
    await session?.close();
  });

  it('search_wiki, ask_wiki, read_page and list_pages never give their content; the operator is told once', async () => {
    const answers = [
      await session.call('search_wiki', { query: 'okapi' }),
      await session.call('search_wiki', { query: 'okapi notes' }),
      await session.call('ask_wiki', { question: 'what is an okapi?' }),
      ...(await Promise.all(['env-link', 'git-link', 'outside-link'].map((key) => session.call('read_page', { key })))),
      await session.call('list_pages'),
    ];
    for (const answer of answers) expect(answer.text).not.toContain(SECRET);
    expect(session.stderr().match(/hard link/g)).toHaveLength(1);
    for (const linked of LINKED) expect(session.stderr()).toContain(linked);
  });
});
