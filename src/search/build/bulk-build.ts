import type { DocTable } from '../live/doc-table.js';
import type { PageStat } from '../live/doc-record.js';
import type { PageDocument } from '../text/document.js';
import type { LexicalLane } from '../lanes/lexical/lexical.js';
import type { TokenLane } from '../lanes/token/token-lane.js';
import { IdEmbeddingInput } from '../lanes/semantic/embedder.js';
import type { PageToEmbed } from '../lanes/semantic/semantic.js';
import { analysePageIds } from '../text/page-analysis.js';
import type { MergedPage } from './page-batch.js';
import { Vocabulary } from '../text/vocabulary.js';

/** A page analysed for a bulk build, not yet added. */
export interface AnalysedForBuild {
  doc: PageDocument;
  terms: Int32Array;
  fieldEnds: readonly number[];
  whole: Int32Array;
  input: IdEmbeddingInput;
}

/**
 * A full build in progress: pages are analysed into one vocabulary (here, or merged in
 * from a build worker), added in page order, then each lane is built in bulk by
 * `finishLanes`. The lanes keep their terms in term order, so the persisted index does not
 * depend on the order in which the vocabulary met them.
 */
export class BulkBuild {
  readonly vocabulary = new Vocabulary();
  readonly work: PageToEmbed[] = [];
  private readonly lexical: Array<{ path: string; terms: Int32Array; fieldEnds: readonly number[] }> = [];
  private readonly tokens: Array<{ slot: number; terms: Int32Array }> = [];

  constructor(
    /** The parts of the index it fills: the page table and the lanes built in bulk. */
    private readonly index: { docs: DocTable; lexical: LexicalLane; tokens: TokenLane },
    private readonly seenAt: number,
    /** Keep each page's text for the embedder (one that reads text, not terms). */
    readonly withText: boolean,
  ) {}

  /** Analyse and add one page. */
  addPage(doc: PageDocument, stat: PageStat): void {
    this.add(this.analyse(doc), stat);
  }

  analyse(doc: PageDocument): AnalysedForBuild {
    const analysed = analysePageIds(doc, this.vocabulary, this.withText);
    // The body is analysed now and not kept, so a build does not hold every page's text.
    return { doc: { ...doc, body: '' }, terms: analysed.terms, fieldEnds: analysed.fieldEnds, whole: analysed.whole, input: analysed.embedding };
  }

  /** A page analysed elsewhere, its ids already merged into this build's vocabulary. */
  merged(page: MergedPage): AnalysedForBuild {
    const embedded = page.terms.subarray(page.fieldEnds[0] ?? 0);
    return { doc: page.doc, terms: page.terms, fieldEnds: page.fieldEnds, whole: page.whole, input: new IdEmbeddingInput(page.text, embedded, this.vocabulary) };
  }

  add(page: AnalysedForBuild, stat: PageStat): void {
    const slot = this.index.docs.insert(page.doc, stat, this.seenAt);
    this.lexical.push({ path: page.doc.path, terms: page.terms, fieldEnds: page.fieldEnds });
    this.tokens.push({ slot, terms: page.whole });
    this.work.push({ slot, input: page.input });
  }

  /** Build the lexical and token lanes from every page added. */
  finishLanes(): void {
    this.index.lexical.addAll(this.lexical, this.vocabulary);
    this.index.tokens.addAll(this.tokens, this.vocabulary);
  }
}
