/**
 * How well the semantic lane finds pages in this corpus, measured without judgements when
 * its embedder is trained, and how much that moves the lane's weight in fusion.
 *
 * Each probe is a page's title searched in the lexical lane and in the semantic lane alone;
 * the page's reciprocal rank in each is summed over the probes, and the strength is the
 * semantic sum over the lexical one. A corpus whose page vectors tell its pages apart as
 * well as its words do scores near 1 (Cranfield: 0.92); one whose pages the embedder blurs,
 * lower (CACM, half of whose pages are a title alone: 0.60). The lexical lane finds nearly
 * every page from its title (reciprocal rank 0.96–0.99 on both), so it mostly normalises.
 */
export interface StrengthProbe {
  slot: number;
  title: string;
}

/** How many pages are probed: a probe costs a lexical search and a scan of the page vectors. */
export const STRENGTH_PROBES = 50;

/**
 * Fewer qualifying pages than this and the strength is left unknown (the weight as
 * configured): a mean reciprocal rank over a handful of titles says little, and a small
 * wiki's embedder barely tells its pages apart.
 */
export const MIN_STRENGTH_PROBES = 20;

/** A page qualifies when its title has at least this many terms (a one-word title says little). */
const MIN_TITLE_TERMS = 2;

export interface StrengthParams {
  /** The strength at which the configured semantic weight holds unchanged. */
  reference: number;
  /** The weight is scaled by (strength / reference) to this power (0: not scaled). */
  exponent: number;
}

/**
 * Up to `count` pages evenly spread over `candidates` (in slot order) whose title has at
 * least two terms and whose page holds more than its title (a summary): deterministic for a
 * given index. None when fewer than `min` pages qualify.
 */
export function strengthProbes(
  candidates: ReadonlyArray<{ slot: number; title: string; summary: string }>,
  titleTerms: (title: string) => number,
  count: number,
  min = MIN_STRENGTH_PROBES,
): StrengthProbe[] {
  const eligible = candidates.filter((page) => page.summary.trim() !== '' && titleTerms(page.title) >= MIN_TITLE_TERMS);
  if (eligible.length === 0 || eligible.length < min || count <= 0) return [];
  const step = Math.max(1, eligible.length / count);
  const probes: StrengthProbe[] = [];
  for (let at = 0; Math.floor(at) < eligible.length && probes.length < count; at += step) {
    const page = eligible[Math.floor(at)]!;
    probes.push({ slot: page.slot, title: page.title });
  }
  return probes;
}

/**
 * The semantic lane's summed reciprocal rank over the lexical lane's, or undefined without
 * probes or when neither lane finds any page (`rank` returns 1 for the best, 0 for not found).
 */
export async function semanticStrength(
  probes: readonly StrengthProbe[],
  lexicalRank: (probe: StrengthProbe) => number,
  semanticRank: (probe: StrengthProbe) => Promise<number>,
): Promise<number | undefined> {
  let lexical = 0;
  let semantic = 0;
  for (const probe of probes) {
    const lexicalAt = lexicalRank(probe);
    const semanticAt = await semanticRank(probe);
    if (lexicalAt > 0) lexical += 1 / lexicalAt;
    if (semanticAt > 0) semantic += 1 / semanticAt;
  }
  return lexical > 0 ? semantic / lexical : undefined;
}

/** The factor on the configured semantic weight: 1 when the strength is unknown (an embedder that is not trained on the corpus). */
export function semanticWeightScale(strength: number | undefined, params: StrengthParams): number {
  if (strength === undefined || !(strength >= 0) || params.exponent === 0 || !(params.reference > 0)) return 1;
  return (Math.min(strength, 1) / params.reference) ** params.exponent;
}

/**
 * Below this many pages the semantic lane's weight shrinks in proportion: a small wiki's
 * embedder (trained on it, or general) barely tells its pages apart, so its near-equal
 * cosines add about the same to every page and their small differences overturn the
 * lexical order (a page titled exactly as the query ranked fourth on a nine-page wiki).
 * The lexical lane then decides; the semantic lane still finds a page no word matches.
 * The evaluation collections (1,400 pages and more) are far above it.
 */
export const SMALL_WIKI_PAGES = 50;

export function smallWikiScale(pages: number): number {
  return pages >= SMALL_WIKI_PAGES ? 1 : Math.max(pages, 1) / SMALL_WIKI_PAGES;
}

/** 1 + how many of `scores` (by slot, or at `slots`) are above the score of `target` (0: `target` not scored above 0). */
export function rankOf(target: number, scores: ArrayLike<number>, slots?: ArrayLike<number>): number {
  let own = 0;
  if (slots) {
    for (let i = 0; i < slots.length; i++) if (slots[i] === target) own = scores[i]!;
  } else own = scores[target] ?? 0;
  if (!(own > 0)) return 0;
  let rank = 1;
  for (let i = 0; i < scores.length; i++) {
    const slot = slots ? slots[i]! : i;
    if (slot >= 0 && slot !== target && scores[i]! > own) rank++;
  }
  return rank;
}
