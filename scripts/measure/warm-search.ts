import type { SearchIndex } from '../../src/search/index.js';

/** Timing helpers the store benches share: a duration as printed, a median, a timed call, a warm search median. */

export const ms = (value: number): string => `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ms`;

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** The median of `runs` searches cycling through `queries`, after ten to warm the index. */
export async function warmMedian(index: SearchIndex, queries: readonly string[], runs: number): Promise<number> {
  for (const query of queries.slice(0, 10)) await index.search(query, { limit: 10 });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(() => index.search(queries[i % queries.length] ?? 'query', { limit: 10 }))).ms);
  return median(times);
}
