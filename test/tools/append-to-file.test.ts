import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runToolCalls } from '../../src/agent/tool-runner.js';
import type { ToolCall } from '../../src/agent/types.js';
import { appendedText } from '../../src/tools/append-to-file.js';
import type { ValidationVerdict, WriteAlongside } from '../../src/tools/context.js';
import { toolCall } from '../helpers/scripted-model.js';
import { makeContext, makeWorkspace, page, type TempWorkspace } from './fixtures.js';

describe('what append_to_file puts after a page', () => {
  it('one blank line before a heading, however the page ends and the text opens (never two)', () => {
    for (const previous of ['- last item.', '- last item.\n', '- last item.\n\n']) {
      for (const content of ['## See also\n- [[a]]', '\n## See also\n- [[a]]', '\n\n## See also\n- [[a]]\n']) {
        expect(previous + appendedText(previous, content)).toBe('- last item.\n\n## See also\n- [[a]]\n');
      }
    }
  });

  it('text that opens with a blank line gets one; other text continues on the next line', () => {
    expect(appendedText('A paragraph.\n', '\nAnother paragraph.')).toBe('\nAnother paragraph.\n');
    expect(appendedText('- one\n', '- two')).toBe('- two\n');
    expect(appendedText('- one', '- two')).toBe('\n- two\n');
  });
});

describe('append_to_file calls of one answer', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(async () => {
    await ws.cleanup();
  });

  /** A validator that checks links only: a link must name a page on disk or one counted alongside. */
  function runAnswer(calls: ToolCall[]) {
    const { tools, ctx } = makeContext(ws);
    ctx.validator = {
      validate(_p: string, content: string, _previous?: string, alongside?: WriteAlongside): ValidationVerdict {
        const errors = [...content.matchAll(/\[\[([^\]|]+)/g)]
          .map((match) => match[1] ?? '')
          .filter((key) => !existsSync(path.join(ws.root, 'wiki/concepts', `${key}.md`)) && alongside?.linkKeys?.has(key) !== true)
          .map((key) => `broken-link: names a missing page "${key}"`);
        return { ok: errors.length === 0, errors, warnings: [] };
      },
    };
    return runToolCalls(calls, new Map(Object.entries(tools)));
  }

  it('an append linking to a page a later write_file call of the answer writes is appended after it', async () => {
    // Played ingests sent such an append again in a turn of their own, every time.
    const calls = [
      toolCall('append_to_file', { path: 'wiki/concepts/attention.md', content: '## Related\n- [[transformer]]' }),
      toolCall('write_file', { path: 'wiki/concepts/transformer.md', content: page('Transformer', 'A model built on attention', 'See [[attention]].\n') }),
    ];
    const outcome = await runAnswer(calls);
    expect(outcome.results.map((result) => result.isError)).toEqual([false, false]);
    expect(outcome.results[0]?.content).toContain('(appended after the pages it links to that this answer wrote: [[transformer]])');
    expect(await readFile(path.join(ws.root, 'wiki/concepts/attention.md'), 'utf8')).toContain('- [[transformer]]');
  });

  it('an append linking to a page the answer does not write, or whose page another call names, is refused at once', async () => {
    const missing = await runAnswer([toolCall('append_to_file', { path: 'wiki/concepts/attention.md', content: '- [[nowhere]]' })]);
    expect(missing.results[0]?.content).toContain('names a missing page "nowhere"');
    const shared = await runAnswer([
      toolCall('append_to_file', { path: 'wiki/concepts/attention.md', content: '- [[transformer]]' }),
      toolCall('write_file', { path: 'wiki/concepts/transformer.md', content: page('Transformer', 'A model') }),
      toolCall('read_file', { path: 'wiki/concepts/attention.md' }),
    ]);
    expect(shared.results[0]?.isError).toBe(true);
    expect(shared.results[1]?.isError).toBe(false);
  });

  it('a call on the same page refused for its arguments\' shape does not stop the hold (played wiki 11: `edits` sent as a string)', async () => {
    const outcome = await runAnswer([
      toolCall('write_file', { path: 'wiki/concepts/attention.md', edits: 'old -> new' }),
      toolCall('append_to_file', { path: 'wiki/concepts/attention.md', content: '- [[transformer]]' }),
      toolCall('write_file', { path: 'wiki/concepts/transformer.md', content: page('Transformer', 'A model') }),
    ]);
    expect(outcome.results.map((result) => result.isError)).toEqual([true, false, false]);
    expect(await readFile(path.join(ws.root, 'wiki/concepts/attention.md'), 'utf8')).toContain('- [[transformer]]');
  });

  it('an earlier edit of the same page does not stop the hold (played wiki 13: the source page edited, then appended to)', async () => {
    const outcome = await runAnswer([
      toolCall('write_file', { path: 'wiki/concepts/attention.md', content: page('Attention', 'Weighting inputs', 'Attention weighs its inputs.\n') }),
      toolCall('append_to_file', { path: 'wiki/concepts/attention.md', content: '- [[transformer]]' }),
      toolCall('write_file', { path: 'wiki/concepts/transformer.md', content: page('Transformer', 'A model') }),
    ]);
    expect(outcome.results.map((result) => result.isError)).toEqual([false, false, false]);
    const text = await readFile(path.join(ws.root, 'wiki/concepts/attention.md'), 'utf8');
    expect(text).toContain('Attention weighs its inputs.');
    expect(text).toContain('- [[transformer]]');
  });

  it('a held append whose page the answer failed to write is refused, naming the link', async () => {
    const calls = [
      toolCall('append_to_file', { path: 'wiki/concepts/attention.md', content: '- [[transformer]]' }),
      toolCall('write_file', { path: 'wiki/concepts/transformer.md', content: page('Transformer', 'A model', 'See [[nowhere]].\n') }),
    ];
    const outcome = await runAnswer(calls);
    expect(outcome.results.map((result) => result.isError)).toEqual([true, true]);
    // The link is broken because that write was refused, which the refusal names; it does not invite dropping a good link.
    expect(outcome.results[0]?.content).toContain('[[transformer]] was to be written by another write_file call of this answer (wiki/concepts/transformer.md), but that call was refused');
    expect(outcome.results[0]?.content).not.toMatch(/names a missing page "transformer"|create the page|no existing page/);
    expect(await readFile(path.join(ws.root, 'wiki/concepts/attention.md'), 'utf8')).not.toContain('transformer');
  });
});
