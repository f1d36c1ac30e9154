import { describe, expect, it } from 'vitest';
import { fusedFeedbackSlots } from '../../../src/search/fusion/fused-feedback.js';
import type { LaneScores } from '../../../src/search/fusion/score-fusion.js';
import { SearchEngine, type SearchParams } from '../../../src/search/engine.js';
import { LsaEmbedder } from '../../../src/search/lanes/semantic/embedder.js';
import { SemanticLane } from '../../../src/search/lanes/semantic/semantic.js';
import { DEFAULT_TUNING } from '../../../src/search/fusion/tuning.js';
import { analyze } from '../../../src/search/text/analyze.js';
import { pageDocument } from '../../../src/search/text/document.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';
import { pageText } from '../helpers.js';

/**
 * The semantic lane's second feedback round: the best pages of the lexical and first-round
 * semantic scores fused steer the query once more.
 */
const lexical: LaneScores = { lane: 'lexical', weight: 1, slots: Int32Array.from([0, 1, 2, 3]), scores: Float64Array.from([4, 3, 2, 1]) };
// Fused (lexical / its best + 1.5 × cosine): slot 0 1.15, slot 1 1.05, slot 2 1.85, slot 3 0.25, slot 4 1.2.
const semantic: LaneScores = { lane: 'semantic', weight: 1.5, scores: Float64Array.from([0.1, 0.2, 0.9, 0, 0.8]), absolute: true };
const tieKey = (slot: number): string => String(slot);

describe('fusedFeedbackSlots', () => {
  it.each([
    ['the fused best pages when they differ from the first round', 3, [0, 1, 2], [2, 4, 0]],
    ['none when they are the first round’s pages, in any order', 3, [0, 2, 4], undefined],
    ['none when no pages are asked for', 0, [0, 1, 2], undefined],
    ['none when the first round had no pages (no lexical match)', 3, [], undefined],
    ['fewer pages when fewer were scored', 9, [0], [2, 4, 0, 1, 3]],
  ])('gives %s', (_case, count, firstRound, expected) => {
    expect(fusedFeedbackSlots([lexical, semantic], 5, count, firstRound, tieKey)).toEqual(expected);
  });

  it('gives none when no lane scored a page', () => {
    const nothing: LaneScores = { lane: 'lexical', weight: 1, slots: new Int32Array(0), scores: new Float64Array(0) };
    expect(fusedFeedbackSlots([nothing], 5, 3, [], tieKey)).toBeUndefined();
  });
});

const WORDS = 'wing flow boundary layer shock wave heat transfer pressure drag lift vortex turbulent laminar nozzle jet plate cylinder cone mach'.split(' ');

/** An LSA embedder that counts the queries it embeds. */
class CountingLsa extends LsaEmbedder {
  queries = 0;
  override async embedQuery(query: string, terms: readonly string[]): Promise<Float32Array | undefined> {
    this.queries++;
    return super.embedQuery(query, terms);
  }
}

async function trainedEngine(): Promise<{ engine: SearchEngine; lane: SemanticLane; embedder: CountingLsa }> {
  const embedder = new CountingLsa(8);
  const lane = new SemanticLane(embedder);
  const engine = SearchEngine.empty({ lane });
  const random = seededRandom(5);
  const pick = (): string => WORDS[Math.floor(random() * WORDS.length)]!;
  const pages = Array.from({ length: 80 }, (_, i) => {
    const body = Array.from({ length: 15 + Math.floor(random() * 40) }, pick).join(' ');
    const path = `wiki/concepts/page-${i}.md`;
    return { doc: pageDocument(path, pageText(`${pick()} ${pick()} ${i}`, `${pick()} ${pick()}`, body)), stat: { mtimeMs: 1, size: 1 } };
  });
  await lane.train(engine.indexPages(pages, 1));
  return { engine, lane, embedder };
}

const paramsWith = (weights: SearchParams['weights'], fusedRound: boolean): SearchParams => ({
  weights,
  k: 60,
  pool: 25,
  lexical: { k1: 1.2, b: 0.75, ...DEFAULT_TUNING.lexical },
  feedback: { ...DEFAULT_TUNING.feedback, fusedRound },
  fusion: 'scores',
  semanticScale: 'cosine',
});

describe('SearchEngine: the second feedback round', () => {
  it('scores every page against the query moved towards the best pages of lexical + first-round semantic, embedding the query once', async () => {
    const { engine, lane, embedder } = await trainedEngine();
    const { pages, weight, rankDecay } = DEFAULT_TUNING.feedback;
    const weights = { lexical: 1, semantic: 1.5, token: 0.2 };
    const slotsOf = (result: Awaited<ReturnType<SearchEngine['search']>>): number[] => result.pages.map((page) => page.record.slot);
    let secondRounds = 0;
    for (const query of ['turbulent boundary layer', 'shock wave drag', 'heat transfer plate', 'mach cone nozzle jet', 'vortex lift wing']) {
      const lexicalBest = slotsOf(await engine.search(query, pages, paramsWith({ lexical: 1, semantic: 0, token: 0 }, false)));
      // The first round alone, without the token lane: its best pages are the second round's feedback.
      const fusedBest = slotsOf(await engine.search(query, pages, paramsWith({ ...weights, token: 0 }, false)));
      const before = embedder.queries;
      const result = await engine.search(query, 80, paramsWith(weights, true));
      expect(embedder.queries - before, query).toBe(1);
      const sameFeedback = [...fusedBest].sort().join() === [...lexicalBest].sort().join();
      const expected = await lane.similarities(query, analyze(query), { slots: sameFeedback ? lexicalBest : fusedBest, weight, rankDecay });
      if (!sameFeedback) secondRounds++;
      for (const page of result.pages) {
        const cosine = expected.similarities![page.record.slot]!;
        if (cosine > 0) expect(page.contributions.semantic, `${query}: ${page.record.path}`).toBeCloseTo(1.5 * cosine, 12);
      }
    }
    // The case that matters happened: the fused best pages were not the lexical ones.
    expect(secondRounds).toBeGreaterThan(0);
  });

  it('is off when fusedRound is false: the semantic scores are the first round’s', async () => {
    const { engine, lane } = await trainedEngine();
    const query = 'turbulent boundary layer';
    const lexicalBest = (await engine.search(query, 5, paramsWith({ lexical: 1, semantic: 0, token: 0 }, false))).pages.map((page) => page.record.slot);
    const expected = await lane.similarities(query, analyze(query), { slots: lexicalBest, weight: DEFAULT_TUNING.feedback.weight, rankDecay: DEFAULT_TUNING.feedback.rankDecay });
    const result = await engine.search(query, 80, paramsWith({ lexical: 1, semantic: 1.5, token: 0.2 }, false));
    for (const page of result.pages) {
      const cosine = expected.similarities![page.record.slot]!;
      if (cosine > 0) expect(page.contributions.semantic).toBeCloseTo(1.5 * cosine, 12);
    }
  });
});
