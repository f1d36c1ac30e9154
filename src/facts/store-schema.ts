/**
 * `.wiki/facts.db`'s layout: its tables, created when a writable store opens, and the records
 * the store hands out.
 */
export const FACTS_DB_PATH = '.wiki/facts.db';

/** The tables SCHEMA makes: a store holding fewer is incomplete. */
export const SCHEMA_TABLES = ['facts', 'provenance', 'lineage', 'sources', 'counters', 'facts_fts'] as const;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS facts (
  id TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  norm TEXT NOT NULL UNIQUE,
  first_seen TEXT NOT NULL,
  tombstoned_at TEXT
);
CREATE TABLE IF NOT EXISTS provenance (
  fact_id TEXT NOT NULL REFERENCES facts(id),
  source TEXT NOT NULL,
  line_start INTEGER NOT NULL,
  line_end INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  heading TEXT NOT NULL,
  PRIMARY KEY (fact_id, source, line_start)
);
CREATE INDEX IF NOT EXISTS provenance_by_source ON provenance(source);
CREATE TABLE IF NOT EXISTS lineage (
  fact_id TEXT NOT NULL REFERENCES facts(id),
  previous_text TEXT NOT NULL,
  replaced_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sources (
  path TEXT PRIMARY KEY,
  sha256 TEXT NOT NULL,
  extracted_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5(id UNINDEXED, text, tokenize = 'porter unicode61');
`;

export interface Provenance {
  source: string;
  lineStart: number;
  lineEnd: number;
  sha256: string;
  heading: string;
}

export interface Fact {
  id: string;
  text: string;
  firstSeen: string;
  tombstonedAt: string | null;
  provenance: Provenance[];
  lineage: { previousText: string; replacedAt: string }[];
}

export interface FactHit {
  id: string;
  text: string;
  score: number;
  sources: string[];
}

export interface FactStats {
  facts: number;
  live: number;
  tombstoned: number;
  sources: number;
  duplicatesMerged: number;
  reworded: number;
}

export interface UpsertResult {
  inserted: number;
  merged: number;
  reworded: number;
  tombstoned: number;
}

/** A `facts` row as SQLite returns it. */
export interface FactRow {
  id: string;
  text: string;
  norm: string;
  first_seen: string;
  tombstoned_at: string | null;
}
