import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderRunSummary, type RunSummary } from '../../src/progress/summary.js';

const plain = pc.createColors(false);

const base: RunSummary = {
  status: 'done',
  pagesCreated: ['wiki/concepts/attention.md', 'wiki/sources/attention-paper.md'],
  pagesUpdated: ['wiki/index.md'],
  turns: 7,
  maxTurns: 40,
  usage: { inputTokens: 12_345, outputTokens: 2100, cacheReadTokens: 40_200, cacheWriteTokens: 3000 },
  cost: 0.1234,
  durationMs: 72_400,
  model: 'claude-sonnet-5-5',
};

describe('renderRunSummary', () => {
  it('lists pages, turns, tokens by kind, estimated cost and duration', () => {
    expect(renderRunSummary(base, plain)).toBe(
      [
        '✓ done · 7 turns of 40 · 1m 12s',
        'Created 2 pages:',
        '  + wiki/concepts/attention.md',
        '  + wiki/sources/attention-paper.md',
        'Updated 1 page:',
        '  ~ wiki/index.md',
        'Tokens:  12.3k input · 2.1k output · 40.2k cached · 3k cache writes',
        'Cost:    ~$0.12 (estimated from list prices)',
      ].join('\n'),
    );
  });

  it('says the cost is unknown for a model without a price, and shows tokens anyway', () => {
    const text = renderRunSummary({ ...base, cost: undefined, model: 'llama3.1:8b' }, plain);
    expect(text).toContain('Tokens:  12.3k input');
    expect(text).toContain('Cost:    unknown for llama3.1:8b (no price on file)');
    expect(text).not.toContain('$');
  });

  it('says the cost is unknown because of a local server, whatever name the model answers to', () => {
    const text = renderRunSummary({ ...base, cost: undefined, model: 'llama3.1:8b', localServer: true }, plain);
    expect(text).toContain('Cost:    unknown (local server)');
    expect(text).not.toMatch(/unknown for|no price on file/);
  });

  it.each([
    ['max_turns', '! stopped at the turn limit · 40 turns of 40'],
    ['budget_tokens', '! stopped: token budget reached'],
    ['budget_cost', '! stopped: cost budget reached'],
    ['interrupted', '! interrupted'],
    ['refused', '! the model refused'],
    ['provider_error', '✗ failed: provider error'],
  ] as const)('%s: the first line says how the run ended', (status, expected) => {
    const text = renderRunSummary({ ...base, status, turns: status === 'max_turns' ? 40 : base.turns }, plain);
    expect(text.split('\n')[0]).toContain(expected);
  });

  it('says when no page changed, in singular where it fits', () => {
    const text = renderRunSummary({ ...base, pagesCreated: [], pagesUpdated: [], turns: 1, durationMs: 850 }, plain);
    expect(text.split('\n').slice(0, 2)).toEqual(['✓ done · 1 turn of 40 · 850 ms', 'No pages changed.']);
  });

  it('lists at most 20 pages of a kind and counts the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) => `wiki/entities/e${i}.md`);
    const text = renderRunSummary({ ...base, pagesCreated: many, pagesUpdated: [] }, plain);
    expect(text).toContain('Created 25 pages:');
    expect(text).toContain('  + wiki/entities/e19.md');
    expect(text).not.toContain('e20.md');
    expect(text).toContain('  … and 5 more');
  });

  it('colours the outcome only when colours are on', () => {
    const coloured = renderRunSummary(base, pc.createColors(true));
    expect(coloured).toContain('\x1b[');
    expect(renderRunSummary(base, plain)).not.toContain('\x1b[');
  });
});
