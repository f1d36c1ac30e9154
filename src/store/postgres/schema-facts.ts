/**
 * The facts' tables, part of the database's schema (schema.ts makes them with the pages').
 * `wiki_fact_sources` holds each raw/ source once, as the newest version any replica has
 * offered: its sha256 (NULL once the source is deleted: a tombstone), `stamp` (when that
 * version was made, ms: its last commit's time in the offering checkout, its file time when
 * not committed, or the deletion's time) and the language its facts are in. A version
 * replaces another only with a newer stamp (fact-rows.ts), as pages do. `wiki_facts` holds
 * each fact once, by the id the writer's extraction gave it: its text, language, the
 * project's own analysed terms as a tsvector taken verbatim (every language the analysers
 * know works), each term's count and the fact's length (BM25 needs them), and
 * `tombstoned_at` once no live source states it, with `last_source`, the source that stated
 * it last (a tombstone of a denied source stays hidden). `wiki_fact_places` says where each fact is
 * stated: source, lines and heading. `wiki_fact_corpus` holds the live facts' count and
 * average length (BM25's), counted again by each write so a search need not.
 */
export const FACTS_SCHEMA_SQL = `
CREATE SEQUENCE IF NOT EXISTS wiki_fact_seq;
CREATE TABLE IF NOT EXISTS wiki_fact_sources (
  path text PRIMARY KEY,
  sha256 text,
  stamp bigint NOT NULL,
  language text,
  seq bigint NOT NULL,
  written_by text NOT NULL DEFAULT '',
  written_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS wiki_facts (
  id text PRIMARY KEY,
  text text NOT NULL,
  language text NOT NULL,
  terms tsvector NOT NULL,
  term_counts jsonb NOT NULL,
  length integer NOT NULL,
  first_seen timestamptz NOT NULL DEFAULT now(),
  tombstoned_at timestamptz,
  last_source text
);
CREATE INDEX IF NOT EXISTS wiki_facts_terms ON wiki_facts USING gin (terms) WHERE tombstoned_at IS NULL;
CREATE TABLE IF NOT EXISTS wiki_fact_places (
  fact_id text NOT NULL REFERENCES wiki_facts (id),
  source text NOT NULL REFERENCES wiki_fact_sources (path),
  line_start integer NOT NULL,
  line_end integer NOT NULL,
  heading text NOT NULL,
  PRIMARY KEY (fact_id, source, line_start)
);
CREATE INDEX IF NOT EXISTS wiki_fact_places_source ON wiki_fact_places (source);
CREATE TABLE IF NOT EXISTS wiki_fact_corpus (
  id integer PRIMARY KEY CHECK (id = 1),
  live integer NOT NULL,
  average_length float8 NOT NULL
);
`;

/** The facts' tables; a database without them has no facts schema. */
export const FACTS_TABLES = ['wiki_fact_sources', 'wiki_facts', 'wiki_fact_places', 'wiki_fact_corpus'];

/** What `wiki store init --rebuild` drops of the facts. */
export const DROP_FACTS_SQL = 'DROP TABLE IF EXISTS wiki_fact_corpus, wiki_fact_places, wiki_facts, wiki_fact_sources; DROP SEQUENCE IF EXISTS wiki_fact_seq';
