import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.js';
import { createWikiMcpServer } from '../../src/mcp/server.js';
import { freshWorkspace } from '../cli/cron-fixtures.js';

/**
 * `wiki mcp` as an agent meets it, in this process with the SDK's own client: every tool
 * error says what it means in `_meta.outcome` (the SDK's own input validation too), a path
 * given to read_page suggests no key from outside the wiki, and a page written after the
 * server started is found by the next search once the watch has refreshed (an event the
 * test waits on, never a clock).
 */

const page = (title: string, body: string): string => `---\ntitle: ${title}\nsummary: About ${title.toLowerCase()}.\ntype: concept\n---\n\n${body}\n`;

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
});

async function open(root: string): Promise<{ call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>; nextRefresh: () => Promise<void> }> {
  const settings = await loadSettings(root);
  let waiters: Array<() => void> = [];
  const wiki = createWikiMcpServer(
    { root, schema: settings.schema, config: settings.config.config },
    { env: {}, onRefreshed: () => waiters.splice(0).forEach((wake) => wake()) },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await wiki.server.connect(serverSide);
  const client = new Client({ name: 'tool-errors-test', version: '1.0.0' });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await wiki.server.close();
    await wiki.close();
  });
  return {
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    nextRefresh: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
}

const text = (result: CallToolResult): string => result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

describe('wiki mcp tool errors', () => {
  it('marks input the tool schema refuses, and an unknown tool, as invalid in _meta.outcome', async () => {
    const root = await freshWorkspace();
    const wiki = await open(root);
    for (const [name, args] of [
      ['search_wiki', { query: 42 }],
      ['search_wiki', { query: 'x', limit: 5000 }],
      ['read_page', {}],
      ['list_pages', { surprise: true }],
      ['no_such_tool', {}],
    ] as const) {
      const result = await wiki.call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result._meta?.outcome, `${name} ${JSON.stringify(args)}: ${text(result)}`).toBe('invalid');
    }
    // Good work: a valid call is no error and carries no outcome.
    const fine = await wiki.call('list_pages', {});
    expect(fine.isError).toBeFalsy();
  });

  it('read_page given a path suggests only a key the caller may see, never one from outside the wiki', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'wiki/concepts/attention.md'), page('Attention', 'Attention weighs tokens.'));
    const wiki = await open(root);
    for (const key of ['/etc/passwd', '../../.env', '../raw/attention.md', '/home/user/attention.md', 'wiki/concepts/secret.md']) {
      const result = await wiki.call('read_page', { key });
      expect(result._meta?.outcome).toBe('invalid');
      expect(text(result)).not.toMatch(/did you mean/);
    }
    // Good work: a page path inside the wiki is answered with its key.
    expect(text(await wiki.call('read_page', { key: 'wiki/concepts/attention.md' }))).toMatch(/did you mean the key `attention`/);
  });

  it('finds a page written after it started at the next refresh of the watch', async () => {
    const root = await freshWorkspace();
    const wiki = await open(root);
    const found = async (): Promise<boolean> => text(await wiki.call('search_wiki', { query: 'quokka rottnest' })).includes('"key":"quokka-facts"');
    expect(await found()).toBe(false);
    await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
    await writeFile(path.join(root, 'wiki/concepts/quokka-facts.md'), page('Quokka facts', 'Quokkas live on Rottnest island.'));
    for (;;) {
      const next = wiki.nextRefresh();
      if (await found()) break;
      await next;
    }
  });
});
