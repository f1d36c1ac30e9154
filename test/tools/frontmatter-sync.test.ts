import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, makeContext, makeWorkspace, type TempWorkspace } from './fixtures.js';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const TODAY = '2026-11-28';
const read = (relative: string) => readFile(path.join(ws.root, relative), 'utf8');
const tools = () => makeContext(ws, { today: () => TODAY }).tools;

const dated = (fields: string, body: string): string =>
  `---\ntitle: Transformer\nsummary: Built on attention\ntype: concept\n${fields}created: 2026-01-01\nupdated: 2026-01-02\n---\n\n${body}`;

describe('write_file keeps refs, sources and updated in step with the body', () => {
  it('adds every linked key to refs and every cited file to sources, moves updated to today and says so', async () => {
    const content = dated(
      '# the owner keeps this comment\nrefs: [attention]\n',
      'Uses [[attention]] and [[self-attention|self attention]] ([[attention#Math]]).\n\nA claim. <!-- from: raw/paper.md#L1-2 -->\n',
    );
    const result = await call(tools(), 'write_file', { path: 'wiki/concepts/transformer.md', content });
    expect(result.isError).toBe(false);
    expect(result.content).toContain('frontmatter kept in step with the body: added to refs: self-attention; added to sources: raw/paper.md; updated: 2026-11-28');
    const written = await read('wiki/concepts/transformer.md');
    expect(written).toBe(
      '---\ntitle: Transformer\nsummary: Built on attention\ntype: concept\n# the owner keeps this comment\nrefs: [attention, self-attention]\n' +
        `sources: [raw/paper.md]\ncreated: 2026-01-01\nupdated: ${TODAY}\n---\n\n` +
        'Uses [[attention]] and [[self-attention|self attention]] ([[attention#Math]]).\n\nA claim. <!-- from: raw/paper.md#L1-2 -->\n',
    );
  });

  it('keeps a block-style list block-style and leaves a page that records no dates without them', async () => {
    const content = '---\ntitle: T\nsummary: S\nrefs:\n  - attention\n---\n\nSee [[attention]] and [[other]].\n';
    const result = await call(tools(), 'write_file', { path: 'wiki/concepts/t.md', content });
    expect(result.content).toContain('added to refs: other');
    expect(result.content).not.toContain('updated:');
    expect(await read('wiki/concepts/t.md')).toBe('---\ntitle: T\nsummary: S\nrefs:\n  - attention\n  - other\n---\n\nSee [[attention]] and [[other]].\n');
  });

  it('does not fire on a page already in step: written byte for byte, no frontmatter line in the result', async () => {
    const content = `---\ntitle: T\nsummary: S\nrefs: [attention]\nsources: [raw/paper.md]\nupdated: ${TODAY}\n---\n\nSee [[attention]]. <!-- from: raw/paper.md#L1 -->\n`;
    const result = await call(tools(), 'write_file', { path: 'wiki/concepts/t.md', content });
    expect(result.content).toBe(`created wiki/concepts/t.md (${content.length} characters)`);
    expect(await read('wiki/concepts/t.md')).toBe(content);
  });

  it('validates what it adds: the page with its frontmatter in step is what the validator judged last', async () => {
    const { tools: withPorts, ports } = makeContext(ws, { today: () => TODAY });
    const content = '---\ntitle: T\nsummary: S\n---\n\nSee [[attention]].\n';
    await call(withPorts, 'write_file', { path: 'wiki/concepts/t.md', content });
    expect(ports.validations.map((v) => v.content)).toEqual([content, '---\ntitle: T\nsummary: S\nrefs: [attention]\n---\n\nSee [[attention]].\n']);
  });

  it('reports an identical page as unchanged once its frontmatter is in step', async () => {
    const first = '---\ntitle: T\nsummary: S\n---\n\nSee [[attention]].\n';
    await call(tools(), 'write_file', { path: 'wiki/concepts/t.md', content: first });
    const again = await call(tools(), 'write_file', { path: 'wiki/concepts/t.md', content: first });
    expect(again.content).toMatch(/^unchanged: /);
  });
});

describe('append_to_file keeps the frontmatter in step with what it appends', () => {
  it('adds the appended links to refs (the page was left with refs: [] before) and writes the whole page', async () => {
    const before = '---\ntitle: Attention\nsummary: How models weigh tokens\ntype: concept\nrefs: []\nupdated: 2026-01-02\n---\n\nBody text.\n';
    await writeFile(path.join(ws.root, 'wiki/concepts/attention.md'), before);
    const { tools: t, ports } = makeContext(ws, { today: () => TODAY });
    const result = await call(t, 'append_to_file', { path: 'wiki/concepts/attention.md', content: '## Related\n\n- [[transformer]]\n- [[bert]]' });
    expect(result.isError).toBe(false);
    expect(result.content).toContain('added to refs: transformer, bert; updated: 2026-11-28');
    const after = `---\ntitle: Attention\nsummary: How models weigh tokens\ntype: concept\nrefs: [transformer, bert]\nupdated: ${TODAY}\n---\n\nBody text.\n\n## Related\n\n- [[transformer]]\n- [[bert]]\n`;
    expect(await read('wiki/concepts/attention.md')).toBe(after);
    expect(ports.upserts.at(-1)).toEqual({ path: 'wiki/concepts/attention.md', content: after });
    expect(ports.events).toEqual(['before wiki/concepts/attention.md present', 'after wiki/concepts/attention.md appended']);
  });

  it('does not fire on an append that links nothing new to a page dated today: a plain append', async () => {
    const before = `---\ntitle: Attention\nsummary: S\nrefs: [transformer]\nupdated: ${TODAY}\n---\n\nSee [[transformer]].\n`;
    await call(tools(), 'write_file', { path: 'wiki/concepts/attention.md', content: before });
    const result = await call(tools(), 'append_to_file', { path: 'wiki/concepts/attention.md', content: 'More on [[transformer]].' });
    expect(result.content).not.toContain('frontmatter');
    expect(await read('wiki/concepts/attention.md')).toBe(`${before}More on [[transformer]].\n`);
  });
});
