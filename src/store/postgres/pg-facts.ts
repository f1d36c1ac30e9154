import { deniedPathReason } from '../../confine/paths.js';
import type { FactReader } from '../../facts/reader.js';
import { citeLines } from '../../facts/store.js';
import type { Fact, FactHit, FactStats } from '../../facts/store-schema.js';
import type { Database } from './connection.js';
import { bm25Scores, factQueryTerms } from './fact-terms.js';
import { anyTermQuery } from './pg-lexical.js';

interface Place {
  fact_id: string;
  source: string;
  line_start: number;
  line_end: number;
  heading: string;
  sha256: string | null;
}

/** How many ranked facts' places are read at a time, per fact asked for, while denied sources are skipped. */
const PLACES_PER_HIT = 2;

/**
 * The facts every replica shares, read from the database: candidates found by its
 * full-text index (`terms @@ tsquery`, GIN) and ranked by FTS5's BM25 over the project's
 * own analysed terms (fact-terms.ts). A place in a source this wiki denies (the built-in
 * list and sandbox.deny) is never returned, whoever wrote it, and a fact stated only there
 * is not found: another clone's older configuration cannot leak it.
 */
export class PostgresFactReader implements FactReader {
  readonly where: string;

  constructor(
    private readonly db: Database,
    private readonly deny: readonly string[],
    private readonly ownsConnection = true,
  ) {
    this.where = `database ${db.name}`;
  }

  async search(query: string, limit: number): Promise<FactHit[]> {
    const languages = await this.db.query<{ language: string }>('SELECT DISTINCT language FROM wiki_fact_sources WHERE sha256 IS NOT NULL AND language IS NOT NULL');
    const terms = factQueryTerms(
      query,
      languages.map((row) => row.language),
    );
    if (terms.length === 0 || limit <= 0) return [];
    const [candidates, [corpus]] = await Promise.all([
      this.db.query<{ id: string; text: string; term_counts: Record<string, number>; length: number }>(
        'SELECT id, text, term_counts, length FROM wiki_facts WHERE tombstoned_at IS NULL AND terms @@ $1::tsquery',
        [anyTermQuery(terms)],
      ),
      this.db.query<{ n: number; average: number }>('SELECT live AS n, average_length AS average FROM wiki_fact_corpus WHERE id = 1'),
    ]);
    const scores = bm25Scores(
      candidates.map((c) => ({ counts: c.term_counts, length: c.length })),
      terms,
      corpus?.n ?? 0,
      corpus?.average ?? 0,
    );
    const ranked = candidates.map((c, i) => ({ id: c.id, text: c.text, score: scores[i]! })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    const hits: FactHit[] = [];
    const chunkSize = Math.max(limit * PLACES_PER_HIT, 20);
    for (let from = 0; from < ranked.length && hits.length < limit; from += chunkSize) {
      const chunk = ranked.slice(from, from + chunkSize);
      const places = await this.allowedPlaces(chunk.map((fact) => fact.id));
      for (const fact of chunk) {
        const sources = places.get(fact.id);
        if (sources && hits.length < limit) hits.push({ ...fact, sources: sources.map(cited) });
      }
    }
    return hits;
  }

  async factsOfSources(sources: readonly string[]): Promise<FactHit[]> {
    const allowed = sources.filter((source) => this.allows(source));
    if (allowed.length === 0) return [];
    const rows = await this.db.query<{ id: string; text: string }>(
      `SELECT DISTINCT f.id, f.text FROM wiki_facts f JOIN wiki_fact_places p ON p.fact_id = f.id
       WHERE p.source = ANY($1) AND f.tombstoned_at IS NULL ORDER BY f.id`,
      [allowed],
    );
    const places = await this.allowedPlaces(rows.map((row) => row.id));
    return rows.flatMap((row) => {
      const stated = places.get(row.id);
      return stated ? [{ id: row.id, text: row.text, score: 0, sources: stated.map(cited) }] : [];
    });
  }

  async get(id: string): Promise<Fact | undefined> {
    const [row] = await this.db.query<{ id: string; text: string; first_seen: Date; tombstoned_at: Date | null; last_source: string | null }>(
      'SELECT id, text, first_seen, tombstoned_at, last_source FROM wiki_facts WHERE id = $1',
      [id],
    );
    if (!row) return undefined;
    const all = await this.places([id], true);
    const allowed = all.filter((place) => this.allows(place.source));
    // Stated only in denied sources, or a tombstone of one: as absent as in a search.
    if (all.length > 0 && allowed.length === 0) return undefined;
    if (row.last_source !== null && !this.allows(row.last_source)) return undefined;
    return {
      id: row.id,
      text: row.text,
      firstSeen: row.first_seen.toISOString(),
      tombstonedAt: row.tombstoned_at?.toISOString() ?? null,
      provenance: allowed.map((p) => ({ source: p.source, lineStart: p.line_start, lineEnd: p.line_end, sha256: p.sha256 ?? '', heading: p.heading })),
      // Rewordings are kept by each checkout's extraction (`.wiki/facts.db`), not in the database.
      lineage: [],
    };
  }

  /** The database's counts; `reworded` is the caller's to give (rewordings are kept by the local extraction). */
  async stats(): Promise<FactStats> {
    const [row] = await this.db.query<{ facts: number; live: number; sources: number; places: number }>(
      `SELECT (SELECT count(*)::int FROM wiki_facts) AS facts,
              (SELECT count(*)::int FROM wiki_facts WHERE tombstoned_at IS NULL) AS live,
              (SELECT count(*)::int FROM wiki_fact_sources WHERE sha256 IS NOT NULL) AS sources,
              (SELECT count(DISTINCT (fact_id, source))::int FROM wiki_fact_places) AS places`,
    );
    const { facts = 0, live = 0, sources = 0, places = 0 } = row ?? {};
    return { facts, live, tombstoned: facts - live, sources, duplicatesMerged: Math.max(0, places - live), reworded: 0 };
  }

  async close(): Promise<void> {
    if (this.ownsConnection) await this.db.close();
  }

  private allows(source: string): boolean {
    return deniedPathReason(source, this.deny) === undefined;
  }

  /** Where the facts are stated; `withSha256`: with each source's sha256 (what `facts show` gives). */
  private async places(ids: readonly string[], withSha256 = false): Promise<Place[]> {
    if (ids.length === 0) return [];
    const sha256 = withSha256 ? '(SELECT s.sha256 FROM wiki_fact_sources s WHERE s.path = p.source)' : 'NULL';
    return this.db.query<Place>(
      `SELECT p.fact_id, p.source, p.line_start, p.line_end, p.heading, ${sha256} AS sha256 FROM wiki_fact_places p
       WHERE p.fact_id = ANY($1) ORDER BY p.source, p.line_start, p.line_end`,
      [ids],
    );
  }

  /** Each fact's places in sources this wiki allows; a fact with none is left out. */
  private async allowedPlaces(ids: readonly string[]): Promise<Map<string, Place[]>> {
    const byFact = new Map<string, Place[]>();
    for (const place of await this.places(ids)) {
      if (!this.allows(place.source)) continue;
      const list = byFact.get(place.fact_id);
      if (list) list.push(place);
      else byFact.set(place.fact_id, [place]);
    }
    return byFact;
  }
}

function cited(place: Place): string {
  return citeLines(place.source, place.line_start, place.line_end);
}
