import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeContext, makeWorkspace, page, type TempWorkspace } from './fixtures.js';

/** A page that is not UTF-8 is never rewritten by the model's tools: its bytes would become U+FFFD. */
let ws: TempWorkspace;
const PAGE = 'wiki/concepts/cafe.md';
const latin1 = Buffer.from('---\ntitle: Caf\xe9\nsummary: Latin-1\ntype: concept\n---\n\nD\xe9j\xe0 vu.\n', 'latin1');

beforeAll(async () => {
  ws = await makeWorkspace();
  await writeFile(path.join(ws.root, PAGE), latin1);
});
afterAll(async () => ws.cleanup());

describe('write tools over a page that is not UTF-8', () => {
  const cases = [
    { tool: 'write_file', args: { path: PAGE, content: page('Cafe', 'Rewritten') } },
    { tool: 'append_to_file', args: { path: PAGE, content: '\nMore.\n' } },
  ];
  it.each(cases)('$tool is refused with the byte offset and what to do; the file keeps every byte', async ({ tool, args }) => {
    const { tools, ports } = makeContext(ws);
    const outcome = await call(tools, tool, args);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain(`${PAGE} is not valid UTF-8 (first bad byte at offset 14)`);
    expect(outcome.content).toContain('iconv');
    expect(ports.events).toEqual([]);
    expect((await readFile(path.join(ws.root, PAGE))).equals(latin1)).toBe(true);
  });
});
