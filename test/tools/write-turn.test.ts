import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ValidationVerdict, WriteAlongside } from '../../src/tools/context.js';
import type { ToolOutcome, TurnBatch } from '../../src/agent/tool.js';
import { makeContext, makeWorkspace, page, type TempWorkspace } from './fixtures.js';

/**
 * The write_file calls of one answer (Tool.openTurn), over a validator that checks links
 * only: a link must name a page on disk or one counted alongside. What it costs stays
 * bounded (a few checks per call), and an interrupt writes no held page.
 */

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

function linkValidator(root: string, checks: { count: number }) {
  return {
    validate(_p: string, content: string, _previous?: string, alongside?: WriteAlongside): ValidationVerdict {
      checks.count += 1;
      const together = new Set((alongside?.pages ?? []).map((p) => path.basename(p.path, '.md')));
      const errors = [...content.matchAll(/\[\[([^\]]+)\]\]/g)]
        .map((match) => match[1] ?? '')
        .filter((key) => !existsSync(path.join(root, 'wiki/concepts', `${key}.md`)) && alongside?.linkKeys?.has(key) !== true && !together.has(key))
        .map((key) => `broken-link: names a missing page "${key}"`);
      if (content.includes('INVALID')) errors.push('bad line');
      return { ok: errors.length === 0, errors, warnings: [] };
    },
  };
}

const key = (i: number): string => `page-${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`;
const args = (i: number, links: number[], extra = '') => ({
  path: `wiki/concepts/${key(i)}.md`,
  content: page(`Page ${i}`, `Summary ${i}`, `${links.map((j) => `See [[${key(j)}]].`).join(' ')}\n${extra}`),
});

/** Run one answer's write_file calls through a batch, as the tool runner does: in call order, then settle. */
async function runTurn(batch: TurnBatch, calls: ReadonlyArray<{ path: string; content: string }>, signal?: AbortSignal): Promise<ToolOutcome[]> {
  const outcomes: Array<ToolOutcome | undefined> = [];
  for (const [index, call] of calls.entries()) outcomes.push(await batch.run(index, call, signal));
  const settled = await batch.settle(signal);
  return outcomes.map((outcome, index) => outcome ?? (settled.get(index) as ToolOutcome));
}

function openBatch(checks: { count: number }, calls: ReadonlyArray<{ path: string; content: string }>): TurnBatch {
  const { tools, ctx } = makeContext(ws);
  ctx.validator = linkValidator(ws.root, checks);
  const tool = tools.write_file;
  if (tool?.openTurn === undefined) throw new Error('write_file sees its calls of a turn together');
  return tool.openTurn(calls.map((call, index) => ({ index, name: 'write_file', args: call })));
}

describe('write_file calls of one answer', () => {
  it('forty pages each linking forward are all written, with a few checks per page', async () => {
    const calls = Array.from({ length: 40 }, (_, i) => args(i, i < 39 ? [i + 1] : []));
    const checks = { count: 0 };
    const outcomes = await runTurn(openBatch(checks, calls), calls);
    expect(outcomes.filter((o) => o.isError)).toEqual([]);
    expect(outcomes[0]?.content).toMatch(/written after the pages it links to that this answer wrote \(\[\[page-b0\]\]\)/);
    // Checked when its turn comes, again with the later keys counted, then once more when it lands
    // (each pass validating the page as sent and with its refs kept in step): linear, not quadratic.
    expect(checks.count).toBeLessThanOrEqual(5 * 40);
  });

  it('a circle of forty with one bad page writes none of them, with a few checks per page', async () => {
    const calls = Array.from({ length: 40 }, (_, i) => args(i, [(i + 1) % 40], i === 20 ? 'INVALID\n' : ''));
    const checks = { count: 0 };
    const outcomes = await runTurn(openBatch(checks, calls), calls);
    expect(outcomes.every((o) => o.isError)).toBe(true);
    expect(outcomes[20]?.content).toContain('bad line');
    expect(outcomes[19]?.content).toContain(`[[${key(20)}]] was to be written by another write_file call of this answer`);
    for (let i = 0; i < 40; i++) expect(existsSync(path.join(ws.root, calls[i]?.path ?? ''))).toBe(false);
    expect(checks.count).toBeLessThanOrEqual(6 * 40);
  });

  it('a page refused for another fault is not told that its links to pages later calls write are missing', async () => {
    // A played page with an unquoted ": " in its summary was also told six same-answer pages were missing.
    const calls = [args(0, [1, 2], 'INVALID\n'), args(1, []), args(2, [])];
    const outcomes = await runTurn(openBatch({ count: 0 }, calls), calls);
    expect(outcomes[0]?.isError).toBe(true);
    expect(outcomes[0]?.content).toContain('bad line');
    expect(outcomes[0]?.content).not.toContain('names a missing page');
    expect(outcomes[0]?.content).toContain(`its links to [[${key(1)}]], [[${key(2)}]] are fine: later write_file calls of this answer write those pages`);
    expect(outcomes.slice(1).map((o) => o.isError)).toEqual([false, false]);
  });

  it('an interrupt before the held calls are settled writes none of them', async () => {
    const calls = [args(0, [1]), args(1, [0])];
    const controller = new AbortController();
    const batch = openBatch({ count: 0 }, calls);
    const first = await batch.run(0, calls[0] as { path: string; content: string });
    const second = await batch.run(1, calls[1] as { path: string; content: string });
    expect([first, second]).toEqual([undefined, undefined]);
    controller.abort();
    const settled = await batch.settle(controller.signal);
    expect([...settled.values()].map((o) => o.content)).toEqual([
      `not written: wiki/concepts/${key(0)}.md was to be written after [[${key(1)}]] of this answer, and the run was interrupted first`,
      `not written: wiki/concepts/${key(1)}.md was to be written after [[${key(0)}]] of this answer, and the run was interrupted first`,
    ]);
    expect(existsSync(path.join(ws.root, calls[0]?.path ?? ''))).toBe(false);
  });
});
