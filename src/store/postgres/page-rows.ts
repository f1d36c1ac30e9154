import type { Database } from './connection.js';
import { CHANGES_CHANNEL } from './schema.js';
import { lexicalColumns } from './pg-lexical.js';

/** One version of a page as a replica offers it: `content` null for a page deleted. */
export interface PageVersion {
  path: string;
  content: string | null;
  hash: string | null;
  visibility: string | null;
  /** When this version was made (ms): its last commit's time, or when a tool wrote it. */
  stamp: number;
}

/** A page's row: the newest version offered, and its place in the database's write order. */
export interface StoredPage extends PageVersion {
  seq: number;
}

/** Rows per INSERT: large enough that a 10k-page sync is a few statements. */
const BATCH = 500;
/** The lock every write holds, so `seq` order is commit order and a replica following it misses none. */
const WRITE_LOCK = 'wiki_pages_write';

/**
 * Offer versions of pages: each replaces the stored one only when newer (a greater stamp;
 * on equal stamps the greater content hash, so every replica settles on the same one). A
 * replica on an older checkout therefore never downgrades a row, nor deletes one: a page
 * missing from a checkout is never offered, only a deletion made by a tool is. Accepted
 * writes are announced on CHANGES_CHANNEL when the transaction commits.
 */
export async function offerVersions(db: Database, versions: readonly PageVersion[], writer: string, language?: string): Promise<{ accepted: string[]; lastSeq: number }> {
  if (versions.length === 0) return { accepted: [], lastSeq: 0 };
  return db.transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [WRITE_LOCK]);
    const accepted: string[] = [];
    let lastSeq = 0;
    for (let from = 0; from < versions.length; from += BATCH) {
      const batch = versions.slice(from, from + BATCH);
      const lexical = batch.map((v) => (v.content === null ? undefined : lexicalColumns(v.path, v.content, language)));
      const { rows } = await client.query<{ path: string; seq: string }>(
        `INSERT INTO wiki_pages AS old (path, content, content_hash, visibility, stamp, seq, written_by, terms, field_terms, field_lengths)
         SELECT p, c, h, v, s, nextval('wiki_write_seq'), $6,
           CASE WHEN tj IS NULL THEN NULL ELSE array_to_tsvector(ARRAY(SELECT jsonb_array_elements_text(tj::jsonb))) END,
           ft::jsonb,
           CASE WHEN fl IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(fl::jsonb)::int) END
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $7::text[], $8::text[], $9::text[]) AS t(p, c, h, v, s, tj, ft, fl)
         ON CONFLICT (path) DO UPDATE SET content = excluded.content, content_hash = excluded.content_hash, visibility = excluded.visibility,
           stamp = excluded.stamp, seq = excluded.seq, written_by = excluded.written_by, written_at = now(),
           terms = excluded.terms, field_terms = excluded.field_terms, field_lengths = excluded.field_lengths
         WHERE old.stamp < excluded.stamp
            OR (old.stamp = excluded.stamp AND coalesce(excluded.content_hash, '') > coalesce(old.content_hash, ''))
         RETURNING path, seq`,
        [
          batch.map((v) => v.path),
          batch.map((v) => v.content),
          batch.map((v) => v.hash),
          batch.map((v) => v.visibility),
          batch.map((v) => Math.round(v.stamp)),
          writer,
          lexical.map((l) => l?.terms ?? null),
          lexical.map((l) => l?.fieldTerms ?? null),
          lexical.map((l) => l?.fieldLengths ?? null),
        ],
      );
      for (const row of rows) {
        accepted.push(row.path);
        lastSeq = Math.max(lastSeq, Number(row.seq));
      }
    }
    if (accepted.length > 0) await client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, String(lastSeq)]);
    return { accepted, lastSeq };
  });
}

/** Rows written after `seq`, in write order (every row from 0). */
export async function rowsSince(db: Database, seq: number): Promise<StoredPage[]> {
  const rows = await db.query<{ path: string; content: string | null; content_hash: string | null; visibility: string | null; stamp: string; seq: string }>(
    'SELECT path, content, content_hash, visibility, stamp, seq FROM wiki_pages WHERE seq > $1 ORDER BY seq',
    [seq],
  );
  return rows.map((row) => ({ path: row.path, content: row.content, hash: row.content_hash, visibility: row.visibility, stamp: Number(row.stamp), seq: Number(row.seq) }));
}

/** Each stored page's hash and stamp (deleted pages' hash null): what a sync compares a checkout with. */
export async function storedVersions(db: Database): Promise<Map<string, { hash: string | null; stamp: number }>> {
  const rows = await db.query<{ path: string; content_hash: string | null; stamp: string }>('SELECT path, content_hash, stamp FROM wiki_pages');
  return new Map(rows.map((row) => [row.path, { hash: row.content_hash, stamp: Number(row.stamp) }]));
}

export interface StoreCounts {
  pages: number;
  deleted: number;
  /** The last write's `seq` (0: none). */
  lastSeq: number;
  /** When the last write landed, ISO time; undefined when none. */
  lastWrite: string | undefined;
}

export async function storeCounts(db: Database): Promise<StoreCounts> {
  const [row] = await db.query<{ pages: number; deleted: number; last_seq: string | null; last_write: Date | null }>(
    'SELECT count(*) FILTER (WHERE content IS NOT NULL)::int AS pages, count(*) FILTER (WHERE content IS NULL)::int AS deleted, max(seq) AS last_seq, max(written_at) AS last_write FROM wiki_pages',
  );
  return { pages: row?.pages ?? 0, deleted: row?.deleted ?? 0, lastSeq: Number(row?.last_seq ?? 0), lastWrite: row?.last_write ? row.last_write.toISOString() : undefined };
}
