import { z } from 'zod';
import type { Usage } from '../agent/types.js';
import priceData from './prices.json' with { type: 'json' };

/** USD per million tokens of each kind (see Usage: the four kinds never overlap). */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const rate = z.number().min(0);
const priceSchema = z.object({ input: rate, output: rate, cacheRead: rate, cacheWrite: rate, note: z.string().optional() });
const tableSchema = z.object({
  compiled: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  currency: z.literal('USD'),
  models: z.record(z.string(), z.record(z.string(), priceSchema)),
  aliases: z.record(z.string(), z.record(z.string(), z.string())),
});

// Parsed once at load: a malformed price file is a packaging bug, better loud than a wrong bill.
const table = tableSchema.parse(priceData);

/** The date the bundled price table was compiled (prices change; estimates say from when). */
export const PRICE_TABLE_DATE: string = table.compiled;

const TOKENS_PER_UNIT = 1_000_000;

/**
 * Dated snapshot suffixes the providers append to a model's base id:
 * Anthropic `claude-sonnet-4-5-20250929`, OpenAI `gpt-4o-2024-08-06`, and `-latest`.
 */
const SNAPSHOT_SUFFIXES = [/-\d{8}$/, /-\d{4}-\d{2}-\d{2}$/, /-latest$/];

/**
 * The list price of `model` on `provider`'s own API, or `undefined` when the table does not
 * know it. Tries the exact id, then a known alias, then the id without a dated snapshot suffix.
 * A model is only priced under its own provider: the same name behind another server (a local
 * OpenAI-compatible one, a router) is not assumed to cost what the vendor charges.
 */
export function priceFor(provider: string, model: string): ModelPrice | undefined {
  const models = table.models[provider];
  if (!models) return undefined;
  const aliases = table.aliases[provider] ?? {};
  for (const id of candidateIds(model.trim().toLowerCase())) {
    const entry = models[aliases[id] ?? id];
    if (entry) return { input: entry.input, output: entry.output, cacheRead: entry.cacheRead, cacheWrite: entry.cacheWrite };
  }
  return undefined;
}

function candidateIds(id: string): string[] {
  const ids = [id];
  for (const suffix of SNAPSHOT_SUFFIXES) {
    const base = id.replace(suffix, '');
    if (base !== id && base.length > 0) ids.push(base);
  }
  return ids;
}

/** Estimated USD for `usage` at `price`. */
export function estimateCost(usage: Usage, price: ModelPrice): number {
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheReadTokens * price.cacheRead +
      usage.cacheWriteTokens * price.cacheWrite) /
    TOKENS_PER_UNIT
  );
}

/**
 * A price function for AgentOptions.price: the estimate for one call's usage, or `undefined`
 * for every call when the model's price is unknown (the run then reports tokens only).
 */
export function makePricer(provider: string, model: string): (usage: Usage) => number | undefined {
  const price = priceFor(provider, model);
  return (usage) => (price === undefined ? undefined : estimateCost(usage, price));
}
