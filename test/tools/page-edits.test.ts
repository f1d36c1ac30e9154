import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyEdits } from '../../src/tools/page-edits.js';
import { call, makeContext, makeWorkspace, page, snapshotTree, type TempWorkspace } from './fixtures.js';

const PAGE = ['---', 'title: Harbour', '---', '', 'The harbour opens at dawn.', 'Boats leave at noon.', 'The harbour closes at dusk.', ''].join('\n');

describe('applyEdits: exact replacements, each old found exactly once', () => {
  it('replaces each old and says on which line of the new page each edit now is', () => {
    const outcome = applyEdits(PAGE, [
      { old: 'closes at dusk', new: 'closes at nine' },
      { old: 'Boats leave at noon.', new: 'Boats leave at noon.\nFerries leave at one.' },
    ]);
    expect(outcome).toEqual({ ok: true, text: PAGE.replace('closes at dusk', 'closes at nine').replace('noon.', 'noon.\nFerries leave at one.'), lines: [6, 8] });
  });

  it('a missing old is refused with the closest lines of the page, numbered as the file is', () => {
    const outcome = applyEdits(PAGE, [{ old: 'Boats depart at noon.', new: 'x' }]);
    expect(outcome.ok).toBe(false);
    const [problem] = outcome.ok ? [] : outcome.problems;
    expect(problem).toContain('"old" was not found');
    expect(problem).toContain('  6│Boats leave at noon.');
    expect(problem).not.toContain('The harbour opens');
  });

  it('an old that differs only in spacing is told so', () => {
    const outcome = applyEdits(PAGE, [{ old: 'Boats  leave at\nnoon.', new: 'x' }]);
    expect(outcome.ok ? '' : outcome.problems[0]).toContain('differs only in spaces or line breaks');
  });

  it('the closest lines are those holding most of old, even in a long line (a played model was shown a short line sharing a few words)', () => {
    const long = `The explainer proposes changes to the Storage Standard that let a site create multiple storage buckets (the [[api]]), each of which ${'the user agent may delete on its own, '.repeat(8)}as it sees fit.`;
    const text = ['---', 'title: Buckets', '---', '', long, '', '- Buckets hold storage of a site.', ''].join('\n');
    const outcome = applyEdits(text, [{ old: 'proposes changes to the Storage Standard that let a site create multiple storage buckets,', new: 'x' }]);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.problems[0]).toMatch(/\n  5│The explainer proposes/);
  });

  it('edits sent again after they were made change nothing and are not refused; a short new text proves nothing', () => {
    const once = applyEdits(PAGE, [{ old: 'Boats leave at noon.', new: 'Boats leave at noon, weather allowing.' }]);
    expect(once.ok).toBe(true);
    const made = once.ok ? once.text : '';
    expect(applyEdits(made, [{ old: 'Boats leave at noon.', new: 'Boats leave at noon, weather allowing.' }])).toEqual({ ok: true, text: made, lines: [] });
    const short = applyEdits(PAGE.replace('dusk', 'nine'), [{ old: 'at dusk', new: 'at nine' }]);
    expect(short.ok).toBe(false);
  });

  it('an old copied with line numbers is told to leave them out', () => {
    const outcome = applyEdits(PAGE, [{ old: '6│Boats leave at noon.', new: 'x' }]);
    expect(outcome.ok ? '' : outcome.problems[0]).toContain('holds line numbers');
  });

  it('an ambiguous old is refused quoting every occurrence with its line', () => {
    const outcome = applyEdits(PAGE, [{ old: 'The harbour', new: 'The port' }]);
    const problem = outcome.ok ? '' : (outcome.problems[0] ?? '');
    expect(problem).toContain('occurs 2 times (lines 5, 7)');
    expect(problem).toContain('  5│The harbour opens at dawn.');
    expect(problem).toContain('  7│The harbour closes at dusk.');
  });

  it('every failing edit is reported, and nothing applies unless all can; overlapping edits are refused', () => {
    const outcome = applyEdits(PAGE, [
      { old: 'opens at dawn', new: 'opens at six' },
      { old: 'nowhere to be found', new: 'x' },
      { old: '', new: 'x' },
    ]);
    expect(outcome.ok ? [] : outcome.problems.map((p) => p.slice(0, 8))).toEqual(['edit 2: ', 'edit 3: ']);
    const overlap = applyEdits(PAGE, [
      { old: 'opens at dawn', new: 'a' },
      { old: 'dawn.\nBoats', new: 'b' },
    ]);
    expect(overlap.ok ? '' : overlap.problems[0]).toContain('edits 1 and 2 overlap');
    expect(applyEdits(PAGE, []).ok).toBe(false);
  });

  it('a long line is quoted cut, never the whole page', () => {
    const long = `${'word '.repeat(2_000)}end`;
    const outcome = applyEdits(`a\n${long}\nb\n`, [{ old: 'word word missing', new: 'x' }]);
    const problem = outcome.ok ? '' : (outcome.problems[0] ?? '');
    expect(problem.length).toBeLessThan(2_000);
    expect(problem).toContain('more characters on this line');
  });
});

describe('write_file with edits', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(async () => {
    await ws.cleanup();
  });
  const read = (relative: string) => readFile(path.join(ws.root, relative), 'utf8');

  it('changes the page in place, checks the whole result and answers briefly', async () => {
    const { tools, ports } = makeContext(ws);
    const before = await read('wiki/concepts/attention.md');
    const result = await call(tools, 'write_file', { path: 'wiki/concepts/attention.md', edits: [{ old: 'Body text.', new: 'Attention weighs tokens.' }] });
    const after = before.replace('Body text.', 'Attention weighs tokens.');
    expect(result).toEqual({
      content: `edited wiki/concepts/attention.md: 1 edit (now at line 7); the page is now ${after.length} characters`,
      isError: false,
      changed: [{ path: 'wiki/concepts/attention.md', change: 'updated' }],
    });
    expect(await read('wiki/concepts/attention.md')).toBe(after);
    expect(ports.validations.at(-1)).toEqual({ path: 'wiki/concepts/attention.md', content: after });
  });

  it('an edit whose result fails the check writes nothing and says the edits were not made', async () => {
    const { tools } = makeContext(ws);
    const before = await snapshotTree(ws.root);
    const result = await call(tools, 'write_file', { path: 'wiki/concepts/attention.md', edits: [{ old: 'Body text.', new: 'INVALID text.' }] });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('rejected: wiki/concepts/attention.md was not changed: the page your edits would leave fails its check');
    expect(result.content).toContain('- bad line: INVALID text.');
    expect(await snapshotTree(ws.root)).toEqual(before);
  });

  it('content and edits together, or neither, are refused; edits to a page that does not exist are refused', async () => {
    const { tools } = makeContext(ws);
    const both = await call(tools, 'write_file', { path: 'wiki/concepts/attention.md', content: page('A', 'B'), edits: [{ old: 'Body', new: 'x' }] });
    expect(both.content).toContain('not both');
    const neither = await call(tools, 'write_file', { path: 'wiki/concepts/attention.md' });
    expect(neither.content).toContain('give content (the whole page) or edits');
    const absent = await call(tools, 'write_file', { path: 'wiki/concepts/nowhere.md', edits: [{ old: 'a', new: 'b' }] });
    expect(absent.content).toContain('does not exist, so it cannot be edited');
  });

  it('edits reach only what write_file may write: never index.md, log.md, raw/ or a path outside', async () => {
    const { tools } = makeContext(ws);
    const before = await snapshotTree(ws.base);
    for (const target of ['wiki/index.md', 'wiki/log.md', 'raw/paper.md', '../outside/secret.txt', 'schema.md']) {
      const result = await call(tools, 'write_file', { path: target, edits: [{ old: 'a', new: 'b' }] });
      expect(result.isError, target).toBe(true);
      expect(result.content).toMatch(/^refused: /);
    }
    expect(await snapshotTree(ws.base)).toEqual(before);
  });

  it('edits that leave the page as it is write nothing', async () => {
    const { tools, ports } = makeContext(ws);
    const result = await call(tools, 'write_file', { path: 'wiki/concepts/attention.md', edits: [{ old: 'Body text.', new: 'Body text.' }] });
    expect(result).toEqual({ content: 'unchanged: the edits leave wiki/concepts/attention.md as it is', isError: false });
    expect(ports.events).toEqual([]);
  });

  it('the schema the model sees requires only path, with content and edits optional beside it', () => {
    const { tools } = makeContext(ws);
    const parameters = tools.write_file?.definition.parameters as { required: string[]; properties: Record<string, { type?: string; items?: { required?: string[] } }> };
    expect(parameters.required).toEqual(['path']);
    expect(parameters.properties.content?.type).toBe('string');
    expect(parameters.properties.edits?.type).toBe('array');
    expect(parameters.properties.edits?.items?.required).toEqual(['old', 'new']);
    expect(tools.write_file?.definition.description).toMatch(/edits.*a sentence, a citation, a link or a section/);
  });
});
