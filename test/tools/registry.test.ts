import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTools, TOOL_NAMES } from '../../src/tools/registry.js';
import { makeContext, makeWorkspace, type TempWorkspace } from './fixtures.js';

let ws: TempWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});
afterAll(async () => {
  await ws.cleanup();
});

describe('createTools', () => {
  it('returns the five tools of the contract, in order, with their parameters', () => {
    const { ctx } = makeContext(ws);
    const tools = createTools(ctx);
    expect(tools.map((t) => t.definition.name)).toEqual([...TOOL_NAMES]);
    expect(tools.map((t) => t.mutates)).toEqual([false, true, true, false, false]);
    const shapes = Object.fromEntries(
      tools.map((t) => {
        const p = t.definition.parameters as { type: string; properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
        return [t.definition.name, { type: p.type, properties: Object.keys(p.properties), required: p.required, closed: p.additionalProperties === false }];
      }),
    );
    expect(shapes).toEqual({
      read_file: { type: 'object', properties: ['path', 'offset', 'limit'], required: ['path'], closed: true },
      write_file: { type: 'object', properties: ['path', 'content', 'edits'], required: ['path'], closed: true },
      append_to_file: { type: 'object', properties: ['path', 'content'], required: ['path', 'content'], closed: true },
      list_directory: { type: 'object', properties: ['path'], required: ['path'], closed: true },
      search_wiki: { type: 'object', properties: ['query', 'limit'], required: ['query'], closed: true },
    });
    for (const tool of tools) {
      expect(tool.definition.parameters).not.toHaveProperty('$schema');
      expect(JSON.stringify(tool.definition.parameters)).not.toContain(String(Number.MAX_SAFE_INTEGER));
      expect(tool.definition.description.length).toBeGreaterThan(60);
    }
  });
});

describe('argument errors go back to the model, naming the argument and the expected shape', () => {
  const cases: Array<[string, unknown, string]> = [
    ['read_file', {}, 'invalid arguments for read_file: path: Invalid input: expected string, received undefined. Expected read_file(path: string, offset?: integer >= 0, limit?: integer >= 1).'],
    ['read_file', { path: 'raw/paper.md', offset: -1 }, 'offset: Too small: expected number to be >=0'],
    ['read_file', { path: 'raw/paper.md', limit: 1.5 }, 'limit: Invalid input: expected int, received number'],
    ['read_file', { path: 'raw/paper.md', start: 10 }, '(root): Unrecognized key: "start"'],
    ['write_file', { path: 'wiki/x.md' }, 'invalid arguments for write_file: give content (the whole page) or edits (a list of { old, new } changes to the existing page)'],
    ['write_file', { path: 'wiki/x.md', edits: [{ old: 'a' }] }, 'edits.0.new: Invalid input: expected string, received undefined. Expected write_file(path: string, content?: string, edits?: array).'],
    ['append_to_file', { path: 7, content: 'x' }, 'path: Invalid input: expected string, received number'],
    ['list_directory', undefined, 'path: Invalid input: expected string, received undefined'],
    ['search_wiki', { query: ['a'] }, 'query: Invalid input: expected string, received array'],
    ['search_wiki', { query: 'a', limit: '5' }, 'limit: Invalid input: expected number, received string'],
  ];
  it.each(cases)('%s %j', async (name, args, message) => {
    const { tools } = makeContext(ws);
    const tool = tools[name];
    const result = await tool!.run(args as Record<string, unknown>);
    expect(result.isError).toBe(true);
    expect(result.content).toContain(message);
  });

  it('does not run a cancelled call', async () => {
    const { tools, ports } = makeContext(ws);
    const controller = new AbortController();
    controller.abort();
    const result = await tools.search_wiki!.run({ query: 'x' }, controller.signal);
    expect(result).toEqual({ content: 'search_wiki was cancelled before it ran', isError: true });
    expect(ports.searches).toEqual([]);
  });
});
