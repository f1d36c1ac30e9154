import { LEXICAL_FIELDS, bm25Of, matchAdjustment, queryTermsOf, type LexicalParams, type LexicalScorer, type SlotDirectory } from '../../search/lanes/lexical/lexical.js';
import { Bm25Scorer, type ScoringView } from '../../search/lanes/lexical/bm25-scoring.js';
import type { TermFields } from '../../search/lanes/lexical/term-postings.js';
import { analysePage } from '../../search/text/page-analysis.js';
import { pageDocument } from '../../search/text/document.js';
import type { Database } from './connection.js';
import { MAX_LEXEME_BYTES, tsvectorTerms } from './tsvector-limit.js';

/** A page's lexical columns, as `wiki_pages` stores them (JSON text, turned into a tsvector, jsonb and int[] by the INSERT). */
export interface LexicalColumns {
  terms: string;
  fieldTerms: string;
  fieldLengths: string;
}

/**
 * The page as the lexical lane reads it: the same analysis and the same field lengths as the
 * in-process index (bm25-index.ts), a page without `lang` read in the wiki's `language`.
 */
export function lexicalColumns(pagePath: string, content: string, language?: string): LexicalColumns {
  const { fields } = analysePage(pageDocument(pagePath, content, language));
  const frequencies: Record<string, number[]> = {};
  const lengths: number[] = [];
  LEXICAL_FIELDS.forEach((field, f) => {
    const seen = new Set<string>();
    for (const term of fields[field]) {
      const counts = (frequencies[term] ??= LEXICAL_FIELDS.map(() => 0));
      counts[f]!++;
      seen.add(term);
    }
    lengths.push(seen.size || 1);
  });
  const terms = tsvectorTerms(Object.keys(frequencies));
  return { terms: JSON.stringify(terms), fieldTerms: JSON.stringify(frequencies), fieldLengths: JSON.stringify(lengths) };
}

/** A tsquery matching any of `terms`, each a lexeme as written (quoted, so no word is read as syntax). */
export function anyTermQuery(terms: readonly string[]): string {
  return terms.map((term) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

/**
 * The lexical lane on Postgres: the pages holding a query term are found by the database's
 * full-text index (`terms @@ tsquery`, GIN), with their frequencies and field lengths, and
 * scored by the same BM25F code as the in-process lane over the database's counts (live
 * pages, average field lengths), so the scores are the file index's.
 */
export class PostgresLexical implements LexicalScorer {
  private readonly scorer = new Bm25Scorer();
  private stats: { atSeq: number; count: number; averages: Float64Array } | undefined;

  constructor(
    private readonly db: Database,
    /** The last write this process has seen: corpus counts are read again once it moves. */
    private readonly seq: () => number,
  ) {}

  async scoreSlots(terms: readonly string[], params: LexicalParams, pages: SlotDirectory): Promise<{ slots: Int32Array; scores: Float64Array }> {
    const query = [...new Set(queryTermsOf(terms))].filter((term) => Buffer.byteLength(term) < MAX_LEXEME_BYTES);
    if (query.length === 0) return { slots: new Int32Array(0), scores: new Float64Array(0) };
    const [rows, stats] = await Promise.all([
      this.db.query<{ path: string; field_lengths: number[]; tf: Record<string, number[]> | null }>(
        `SELECT path, field_lengths, (SELECT jsonb_object_agg(t, field_terms -> t) FROM unnest($2::text[]) AS t WHERE field_terms ? t) AS tf
         FROM wiki_pages WHERE content IS NOT NULL AND terms @@ $1::tsquery`,
        [anyTermQuery(query), query],
      ),
      this.corpusStats(),
    ]);
    const F = LEXICAL_FIELDS.length;
    const lengths = new Uint32Array(rows.length * F);
    const postings = new Map<string, { docs: number[]; tfs: number[] }[]>();
    rows.forEach((row, doc) => {
      for (let f = 0; f < F; f++) lengths[doc * F + f] = row.field_lengths[f] ?? 1;
      for (const [term, counts] of Object.entries(row.tf ?? {})) {
        let fields = postings.get(term);
        if (!fields) postings.set(term, (fields = LEXICAL_FIELDS.map(() => ({ docs: [], tfs: [] }))));
        counts.forEach((tf, f) => {
          if (tf > 0) {
            fields![f]!.docs.push(doc);
            fields![f]!.tfs.push(tf);
          }
        });
      }
    });
    const view: ScoringView = {
      fieldCount: F,
      documentCount: stats.count,
      capacity: rows.length,
      averageLength: stats.averages,
      lengths,
      alive: undefined,
      postings: (term) => {
        const fields = postings.get(term);
        if (!fields) return undefined;
        const grouped: TermFields = fields.map((group) => (group.docs.length === 0 ? undefined : group));
        return { fields: grouped };
      },
    };
    const slots: number[] = [];
    const scores: number[] = [];
    this.scorer.scoreEach(view, queryTermsOf(terms), params.boosts, LEXICAL_FIELDS, bm25Of(params), matchAdjustment(params), (doc, score) => {
      slots.push(pages.slotOf(rows[doc]!.path) ?? -1);
      scores.push(score);
    });
    return { slots: Int32Array.from(slots), scores: Float64Array.from(scores) };
  }

  /** Live pages and each field's average length, read once per write seen. */
  private async corpusStats(): Promise<{ count: number; averages: Float64Array }> {
    const atSeq = this.seq();
    if (this.stats?.atSeq === atSeq) return this.stats;
    const columns = LEXICAL_FIELDS.map((_, f) => `coalesce(avg(field_lengths[${f + 1}]), 0)::float8 AS f${f}`).join(', ');
    const [row] = await this.db.query<Record<string, number>>(`SELECT count(*)::int AS n, ${columns} FROM wiki_pages WHERE content IS NOT NULL`);
    const averages = Float64Array.from(LEXICAL_FIELDS, (_, f) => Number(row?.[`f${f}`] ?? 0));
    this.stats = { atSeq, count: row?.n ?? 0, averages };
    return this.stats;
  }
}
