import { analyzeQuery, wholeTerms } from './text/analyze.js';
import { ENGLISH } from './language/languages.js';
import { queryLanguages } from './language/query-languages.js';
import type { DocRecord, PageStat } from './live/doc-record.js';
import { DocTable } from './live/doc-table.js';
import type { PageDocument } from './text/document.js';
import { LexicalLane, type LexicalParams, type LexicalScorer } from './lanes/lexical/lexical.js';
import { isCorpusEmbedder } from './lanes/semantic/embedder.js';
import { analysePage } from './text/page-analysis.js';
import { fuseRankings, poolSize, type LaneRanking } from './fusion/rrf.js';
import { SemanticLane, type PageToEmbed } from './lanes/semantic/semantic.js';
import type { VectorRanker } from './lanes/semantic/vector-ranker.js';
import { underPrefix, withPrefix, type Sections } from './live/store.js';
import { TokenLane } from './lanes/token/token-lane.js';
import type { FeedbackParams, FusionMethod, SemanticScale } from './fusion/tuning.js';
import { smoothOverNeighbours, type SmoothingParams } from './fusion/neighbour-smoothing.js';
import { fuseLaneScores, type FusedSlot, type LaneScores } from './fusion/score-fusion.js';
import { fusedFeedbackSlots } from './fusion/fused-feedback.js';
import { semanticWeightScale, smallWikiScale, type StrengthParams } from './fusion/semantic-strength.js';
import { bestSlots } from './lanes/lexical/best-scores.js';
import { LANES, type LaneName, type LaneStatus } from './types.js';
import { BulkBuild } from './build/bulk-build.js';

/**
 * The in-memory index: the page table and the three lanes, kept in step. Pure apart from
 * the embedder it may call; reading pages and persisting belong to the facade.
 */
export interface SearchParams {
  weights: Record<LaneName, number>;
  /** RRF constant K. */
  k: number;
  /** Minimum candidates per lane. */
  pool: number;
  lexical: LexicalParams;
  feedback: FeedbackParams;
  /** Reciprocal rank fusion (`rrf`, with K) or weighted fusion of each lane's scaled scores (`scores`). */
  fusion: FusionMethod;
  semanticScale: SemanticScale;
  /** Score fusion only, with the semantic lane answering; absent: no smoothing. */
  smoothing?: SmoothingParams;
  /** Score fusion only: the semantic weight scaled by the lane's measured strength; absent: as configured. */
  semanticStrength?: StrengthParams;
  /** The wiki's configured language (a code from language/languages.ts), when set: queries are analysed in it too. */
  language?: string | undefined;
}

export interface RankedPage {
  record: DocRecord;
  score: number;
  lanes: Partial<Record<LaneName, number>>;
  contributions: Partial<Record<LaneName, number>>;
}

export interface EngineResult {
  pages: RankedPage[];
  lanes: Record<LaneName, LaneStatus>;
  /** The query as the lexical lane analysed it (for snippets): in each language the wiki holds, one after another. */
  terms: string[];
}

/** The semantic lane, or why there is none. */
export type SemanticSetup = { lane: SemanticLane } | { off: string };

export class SearchEngine {
  private constructor(
    readonly docs: DocTable,
    readonly lexical: LexicalLane,
    readonly tokens: TokenLane,
    readonly semantic: SemanticSetup,
    /** The language of a page that neither states nor shows one: the wiki's, else English (saved with the index). */
    readonly language: string,
  ) {}

  static empty(semantic: SemanticSetup, language: string = ENGLISH): SearchEngine {
    return new SearchEngine(new DocTable(), LexicalLane.empty(), TokenLane.empty(), semantic, language);
  }

  /**
   * Restore from persisted sections. `semanticRestored` is false when the semantic part
   * was made under another embedder configuration and must be redone.
   */
  static decode(sections: Sections, semantic: SemanticSetup, language: string = ENGLISH): { engine: SearchEngine; semanticRestored: boolean } {
    const docs = DocTable.decode(underPrefix('docs', sections));
    const lexical = LexicalLane.decode(underPrefix('lexical', sections), docs.pathsBySlot());
    const tokens = TokenLane.decode(underPrefix('tokens', sections));
    if (lexical.size !== docs.liveCount) throw new Error('lexical lane and page table disagree');
    let semanticRestored = true;
    if ('lane' in semantic) semanticRestored = semantic.lane.restore(underPrefix('semantic', sections), docs.slotCount);
    return { engine: new SearchEngine(docs, lexical, tokens, semantic, language), semanticRestored };
  }

  /** Close the holes left by removed pages, then encode. */
  encode(): Sections {
    this.compact();
    const identity = Int32Array.from({ length: this.docs.slotCount }, (_, i) => i);
    const sections: Sections = {
      ...withPrefix('docs', this.docs.encode()),
      ...withPrefix('lexical', this.lexical.encode(this.docs.pathsBySlot())),
      ...withPrefix('tokens', this.tokens.encode(identity)),
    };
    if ('lane' in this.semantic) Object.assign(sections, withPrefix('semantic', this.semantic.lane.encode(identity, this.docs.slotCount)));
    return sections;
  }

  compact(): void {
    if (this.docs.holes === 0) return;
    const remap = this.docs.compactionMap();
    this.docs.compact(remap);
    this.tokens.compact(remap);
    if ('lane' in this.semantic) this.semantic.lane.compact(remap, this.docs.slotCount);
  }

  /** Index (or re-index) a page in the lexical and token lanes; returns the embedding work. */
  indexPage(doc: PageDocument, stat: PageStat, seenAt: number): PageToEmbed {
    const old = this.docs.get(doc.path);
    if (old && 'lane' in this.semantic) this.semantic.lane.remove(old.slot);
    const analysed = analysePage(doc);
    const slot = this.docs.insert(doc, stat, seenAt);
    this.lexical.add(doc.path, analysed.fields);
    this.tokens.add(slot, analysed.whole);
    return { slot, input: analysed.embedding };
  }

  /**
   * Index many pages at once. Into an empty index (a full build) the pages are analysed
   * into one vocabulary of ids and each lane is built in bulk; the results are the same as
   * indexing the pages one by one.
   */
  indexPages(pages: Iterable<{ doc: PageDocument; stat: PageStat }>, seenAt: number): PageToEmbed[] {
    const bulk = this.bulkBuild(seenAt);
    if (!bulk) return Array.from(pages, ({ doc, stat }) => this.indexPage(doc, stat, seenAt));
    for (const { doc, stat } of pages) bulk.addPage(doc, stat);
    bulk.finishLanes();
    return bulk.work;
  }

  /** A bulk build into this index, or undefined when it is not empty. */
  bulkBuild(seenAt: number): BulkBuild | undefined {
    if (this.docs.slotCount > 0 || this.lexical.size > 0) return undefined;
    // A corpus embedder reads terms only: the pages' texts need not be kept until it trains.
    const withText = 'lane' in this.semantic && !isCorpusEmbedder(this.semantic.lane.embedder);
    return new BulkBuild(this, seenAt, withText);
  }

  removePage(path: string): boolean {
    const slot = this.docs.remove(path);
    if (slot === undefined) return false;
    this.lexical.remove(path);
    if ('lane' in this.semantic) this.semantic.lane.remove(slot);
    return true;
  }

  async embed(pages: readonly PageToEmbed[]): Promise<void> {
    if ('lane' in this.semantic) await this.semantic.lane.embed(pages);
  }

  /**
   * What the semantic weight is multiplied by in this corpus: its measured strength's factor
   * under score fusion (`fusion/semantic-strength.ts`), 1 when not measured or not scaled.
   */
  semanticWeightFactor(params: SearchParams): number {
    if (params.fusion !== 'scores' || !('lane' in this.semantic)) return 1;
    const strength = params.semanticStrength ? semanticWeightScale(this.semantic.lane.strength, params.semanticStrength) : 1;
    return strength * smallWikiScale(this.docs.liveCount);
  }

  /** The weight fusion gives each lane: as configured, the semantic one times `semanticWeightFactor`. */
  effectiveWeights(params: SearchParams): Record<LaneName, number> {
    return { ...params.weights, semantic: params.weights.semantic * this.semanticWeightFactor(params) };
  }

  /** The semantic lane's measured strength in the corpus (saved with the index header for `wiki status`). */
  get semanticStrength(): number | undefined {
    return 'lane' in this.semantic ? this.semantic.lane.strength : undefined;
  }

  /**
   * `lexical`: what scores the lexical lane under score fusion (default: this engine's own
   * index); `vectors`: what ranks the semantic lane's vectors (default: the lane's own).
   */
  async search(query: string, limit: number, params: SearchParams, lexical: LexicalScorer = this.lexical, vectors?: VectorRanker): Promise<EngineResult> {
    if (params.fusion === 'scores') return this.searchByScores(query, limit, params, lexical, vectors);
    // Rank fusion: each lane ranks a pool, the lexical lane's best pages steer the semantic query.
    const pool = poolSize(params.pool, limit);
    const terms = analyzeQuery(query, queryLanguages(this.docs.languages(), params.language));
    const lanes = {} as Record<LaneName, LaneStatus>;
    const rankings: LaneRanking[] = [];
    const pathOf = (slot: number): string => this.docs.pathAt(slot) ?? '';
    let lexicalIds: string[] = [];
    for (const lane of LANES) {
      if (params.weights[lane] <= 0) {
        lanes[lane] = 'skipped: weight is 0';
        continue;
      }
      let ids: string[] = [];
      if (lane === 'lexical') {
        lexicalIds = this.lexical.search(terms, Math.max(pool, params.feedback.pages), params.lexical);
        ids = lexicalIds.slice(0, pool);
        lanes.lexical = 'ok';
      } else if (lane === 'token') {
        const found = this.tokens.search(wholeTerms(query), pool, this.docs.isLive, this.docs.liveCount, this.docs.keyOf);
        ids = found.map((hit) => pathOf(hit.slot));
        lanes.token = 'ok';
      } else if ('off' in this.semantic) {
        lanes.semantic = `skipped: ${this.semantic.off}`;
        continue;
      } else {
        const feedback = { slots: this.slotsOf(lexicalIds.slice(0, params.feedback.pages)), weight: params.feedback.weight, rankDecay: params.feedback.rankDecay };
        const result = await this.semantic.lane.search(query, terms, pool, this.docs.isLive, feedback, vectors);
        lanes.semantic = result.status;
        if (result.status !== 'ok') continue;
        ids = result.hits.map((hit) => pathOf(hit.slot));
      }
      rankings.push({ lane, weight: params.weights[lane], ids });
    }
    const tieKey = (path: string): string => this.docs.get(path)?.key ?? path;
    const fused = fuseRankings(rankings, params.k, tieKey);
    const pages: RankedPage[] = [];
    for (const hit of fused.slice(0, limit)) {
      const record = this.docs.get(hit.id);
      if (record) pages.push({ record, score: hit.score, lanes: hit.lanes, contributions: hit.contributions });
    }
    return { pages, lanes, terms };
  }

  /**
   * Score fusion over every page each lane scores (`fuseLaneScores`), so no page's score
   * depends on `limit`. The lexical lane's best pages steer the semantic query, then
   * (`feedback.fusedRound`) the best pages of the lexical and semantic scores fused.
   */
  private async searchByScores(query: string, limit: number, params: SearchParams, lexical: LexicalScorer, vectors: VectorRanker | undefined): Promise<EngineResult> {
    const terms = analyzeQuery(query, queryLanguages(this.docs.languages(), params.language));
    const lanes = {} as Record<LaneName, LaneStatus>;
    const scored: LaneScores[] = [];
    const { docs } = this;
    const tieKey = (slot: number): string => `${docs.keyOf(slot)}\u0000${docs.pathAt(slot) ?? ''}`;
    let feedbackSlots: number[] = [];
    if (params.weights.lexical > 0) {
      const { slots, scores } = await lexical.scoreSlots(terms, params.lexical, docs);
      for (let i = 0; i < slots.length; i++) if (slots[i]! < 0) scores[i] = 0;
      scored.push({ lane: 'lexical', weight: params.weights.lexical, slots, scores });
      feedbackSlots = bestSlots(slots, scores, params.feedback.pages, (slot) => docs.pathAt(slot) ?? '');
      lanes.lexical = 'ok';
    } else lanes.lexical = 'skipped: weight is 0';
    if (params.weights.semantic <= 0) lanes.semantic = 'skipped: weight is 0';
    else if ('off' in this.semantic) lanes.semantic = `skipped: ${this.semantic.off}`;
    else {
      const feedback = { slots: feedbackSlots, weight: params.feedback.weight, rankDecay: params.feedback.rankDecay };
      const weight = this.effectiveWeights(params).semantic;
      const semanticScores = (scores: Float64Array): LaneScores => ({ lane: 'semantic', weight, scores, absolute: params.semanticScale === 'cosine' });
      // The second round: the best pages of the lexical and first-round semantic scores fused.
      const refine = params.feedback.fusedRound
        ? (first: Float64Array) => fusedFeedbackSlots([...scored, semanticScores(first)], docs.slotCount, params.feedback.pages, feedbackSlots, tieKey)
        : undefined;
      const result = await this.semantic.lane.similarities(query, terms, feedback, refine, vectors);
      lanes.semantic = result.status;
      if (result.similarities) scored.push(semanticScores(result.similarities));
    }
    if (params.weights.token > 0) {
      const hits = this.tokens.scoreAll(wholeTerms(query), docs.isLive, docs.liveCount);
      const slots = new Int32Array(hits.length);
      const scores = new Float64Array(hits.length);
      for (let i = 0; i < hits.length; i++) {
        slots[i] = hits[i]!.slot;
        scores[i] = hits[i]!.score;
      }
      scored.push({ lane: 'token', weight: params.weights.token, slots, scores });
      lanes.token = 'ok';
    } else lanes.token = 'skipped: weight is 0';
    const pages: RankedPage[] = [];
    for (const hit of this.fuseAndSmooth(scored, limit, lanes.semantic === 'ok' ? params.smoothing : undefined, tieKey)) {
      const record = docs.get(docs.pathAt(hit.slot) ?? '');
      if (record) pages.push({ record, score: hit.score, lanes: hit.lanes, contributions: hit.contributions });
    }
    return { pages, lanes, terms };
  }

  /** The `limit` best fused pages; with `smoothing`, the best `smoothing.pages` smoothed over their similar pages first. */
  private fuseAndSmooth(scored: readonly LaneScores[], limit: number, smoothing: SmoothingParams | undefined, tieKey: (slot: number) => string): FusedSlot[] {
    if (!smoothing || smoothing.pages <= 0 || smoothing.weight <= 0 || !('lane' in this.semantic)) return fuseLaneScores(scored, this.docs.slotCount, limit, tieKey);
    const { lane } = this.semantic;
    const best = fuseLaneScores(scored, this.docs.slotCount, Math.max(limit, smoothing.pages), tieKey);
    return smoothOverNeighbours(best, smoothing, (slot) => lane.pageVector(slot), tieKey).slice(0, limit);
  }

  private slotsOf(paths: readonly string[]): number[] {
    const slots: number[] = [];
    for (const path of paths) {
      const slot = this.docs.slotOf(path);
      if (slot !== undefined) slots.push(slot);
    }
    return slots;
  }
}
