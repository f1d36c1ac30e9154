import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import type { Usage } from '../../src/agent/types.js';
import { DEFAULT_MODELS } from '../../src/providers/defaults.js';
import { estimateCost, makePricer, PRICE_TABLE_DATE, priceFor, type ModelPrice } from '../../src/usage/cost.js';
import { ScriptedModel } from '../helpers/scripted-model.js';

const table = JSON.parse(readFileSync(new URL('../../src/usage/prices.json', import.meta.url), 'utf8')) as {
  models: Record<string, Record<string, ModelPrice>>;
};

const usage = (u: Partial<Usage>): Usage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, ...u });

describe('the price table', () => {
  it.each(Object.entries(DEFAULT_MODELS))('prices the default %s model (%s)', (provider, model) => {
    expect(priceFor(provider, model)).toBeDefined();
  });

  it('says when it was compiled, and that date is not in the future', () => {
    expect(PRICE_TABLE_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(`${PRICE_TABLE_DATE}T00:00:00Z`).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('has plausible rates: cache reads cost less than input, output costs more', () => {
    for (const [provider, models] of Object.entries(table.models)) {
      for (const [model, price] of Object.entries(models)) {
        const where = `${provider}/${model}`;
        expect(price.cacheRead, where).toBeLessThan(price.input);
        expect(price.output, where).toBeGreaterThan(price.input);
        expect(price.cacheWrite, where).toBeGreaterThanOrEqual(price.input);
      }
    }
  });
});

describe('priceFor', () => {
  it.each([
    ['anthropic', 'claude-sonnet-5-5', { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 }],
    ['openai', 'gpt-5.5', { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 }],
  ])('%s %s: the listed rates', (provider, model, expected) => {
    expect(priceFor(provider, model)).toEqual(expected);
  });

  it.each([
    ['anthropic', 'claude-haiku-4-5-20251001', 'claude-haiku-4-5', 'Anthropic dated snapshot'],
    ['anthropic', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', 'Anthropic dated snapshot'],
    ['anthropic', 'claude-sonnet-4-0', 'claude-sonnet-4', 'alias'],
    ['anthropic', 'claude-opus-4-0', 'claude-opus-4', 'alias'],
    ['anthropic', 'claude-sonnet-4-20250514', 'claude-sonnet-4', 'snapshot of a base id'],
    ['anthropic', 'claude-opus-4-5-latest', 'claude-opus-4-5', '-latest'],
    ['anthropic', '  Claude-Sonnet-5-5 ', 'claude-sonnet-5-5', 'case and spaces'],
    ['openai', 'gpt-4o-2024-08-06', 'gpt-4o', 'OpenAI dated snapshot'],
    ['openai', 'gpt-4o-mini-2024-07-18', 'gpt-4o-mini', 'a snapshot of the mini, not of gpt-4o'],
    ['openai', 'gpt-5-2025-08-07', 'gpt-5', 'OpenAI dated snapshot'],
  ])('%s %s is priced as %s (%s)', (provider, model, base) => {
    expect(priceFor(provider, model)).toEqual(priceFor(provider, base));
    expect(priceFor(provider, model)).toBeDefined();
  });

  it.each([
    ['openai', 'llama3.1:8b', 'a local model'],
    ['openai', 'qwen2.5-coder-32b-instruct', 'a local model'],
    ['openai', 'claude-sonnet-5-5', 'a Claude name behind an OpenAI-compatible server'],
    ['anthropic', 'gpt-5.5', 'an OpenAI name on the Anthropic provider'],
    ['scripted', 'scripted-model', 'the test model'],
    ['openai', 'gpt-5.5-turbo', 'a longer name is not a prefix match'],
    ['anthropic', 'claude-sonnet', 'a shorter name is not a prefix match'],
    ['openai', '', 'an empty name'],
    ['mistral', 'mistral-large-latest', 'an unknown provider'],
  ])('%s %s is unknown (%s)', (provider, model) => {
    expect(priceFor(provider, model)).toBeUndefined();
  });
});

describe('estimateCost', () => {
  const price: ModelPrice = { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 };

  it.each([
    ['nothing', usage({}), 0],
    ['one million input tokens', usage({ inputTokens: 1_000_000 }), 2],
    ['one million output tokens', usage({ outputTokens: 1_000_000 }), 10],
    ['one million cache reads', usage({ cacheReadTokens: 1_000_000 }), 0.1],
    ['one million cache writes', usage({ cacheWriteTokens: 1_000_000 }), 2.5],
    // 0.2 + 0.2 + 0.05 + 0.1
    ['a mixed run', usage({ inputTokens: 100_000, outputTokens: 20_000, cacheReadTokens: 500_000, cacheWriteTokens: 40_000 }), 0.55],
    ['a single output token', usage({ outputTokens: 1 }), 0.00001],
  ])('%s', (_name, u, expected) => {
    expect(estimateCost(u, price)).toBeCloseTo(expected, 10);
  });
});

describe('makePricer', () => {
  it('estimates each call for a known model', () => {
    const price = makePricer('anthropic', 'claude-sonnet-5-5');
    expect(price(usage({ inputTokens: 1_000_000, outputTokens: 100_000 }))).toBeCloseTo(3, 10);
  });

  it('returns undefined for every call of an unknown model', () => {
    const price = makePricer('openai', 'llama3.1:8b');
    expect(price(usage({ inputTokens: 1000 }))).toBeUndefined();
  });

  it('gives the agent loop a run cost equal to the estimate of its summed usage', async () => {
    const model = new ScriptedModel([
      { text: 'one', stopReason: 'max_tokens', usage: { inputTokens: 1000, outputTokens: 8192, cacheReadTokens: 0, cacheWriteTokens: 4000 } },
      { text: 'two', usage: { inputTokens: 200, outputTokens: 300, cacheReadTokens: 4000, cacheWriteTokens: 0 } },
    ]);
    const result = await runAgent({
      model,
      system: 's',
      userMessage: 'u',
      tools: [],
      maxOutputTokens: 8192,
      price: makePricer('openai', 'gpt-5.5'),
    });
    const expected = estimateCost(result.usage, { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 });
    expect(result.cost).toBeCloseTo(expected, 10);
    expect(result.cost).toBeGreaterThan(0);
  });
});
