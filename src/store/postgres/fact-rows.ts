import type { PoolClient } from 'pg';
import type { Database } from './connection.js';
import { factTerms } from './fact-terms.js';

/** One place a fact is stated in a source, as the offering checkout's extraction made it. */
export interface StatedFact {
  id: string;
  text: string;
  lineStart: number;
  lineEnd: number;
  heading: string;
}

/** One version of a raw/ source's facts as a replica offers it: `sha256` null for a source deleted. */
export interface SourceVersion {
  path: string;
  sha256: string | null;
  /** When this version was made (ms): its last commit's time, its file's time when not committed, or the deletion's time. */
  stamp: number;
  /** The language its facts are in (null for a deletion). */
  language: string | null;
  facts: readonly StatedFact[];
}

/** The lock every facts write holds, so two replicas offering one source settle in order. */
const WRITE_LOCK = 'wiki_facts_write';

/**
 * Offer versions of sources' facts: each replaces the stored one only when newer (a greater
 * stamp; on equal stamps the greater sha256, so every replica settles on the same one, and
 * with `sameStampReplaces` — `wiki facts rebuild` — this replica's extraction of the same
 * version too). A replaced source's places are this version's; a fact no live source states
 * any more is tombstoned. So a replica on an older checkout never downgrades a source's
 * facts, and never deletes them: only a deletion its checkout records is offered. Returns
 * the sources accepted.
 */
export async function offerSourceVersions(db: Database, versions: readonly SourceVersion[], writer: string, options: { sameStampReplaces?: boolean } = {}): Promise<string[]> {
  if (versions.length === 0) return [];
  return db.transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [WRITE_LOCK]);
    const accepted: string[] = [];
    for (const version of versions) if (await replaceSource(client, version, writer, options.sameStampReplaces === true)) accepted.push(version.path);
    if (accepted.length > 0) {
      await client.query(
        `INSERT INTO wiki_fact_corpus (id, live, average_length) SELECT 1, count(*), coalesce(avg(length), 0) FROM wiki_facts WHERE tombstoned_at IS NULL
         ON CONFLICT (id) DO UPDATE SET live = excluded.live, average_length = excluded.average_length`,
      );
    }
    return accepted;
  });
}

async function replaceSource(client: PoolClient, version: SourceVersion, writer: string, sameStampReplaces: boolean): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO wiki_fact_sources AS old (path, sha256, stamp, language, seq, written_by) VALUES ($1, $2, $3, $4, nextval('wiki_fact_seq'), $5)
     ON CONFLICT (path) DO UPDATE SET sha256 = excluded.sha256, stamp = excluded.stamp, language = excluded.language, seq = excluded.seq,
       written_by = excluded.written_by, written_at = now()
     WHERE old.stamp < excluded.stamp
        OR (old.stamp = excluded.stamp AND (coalesce(excluded.sha256, '') > coalesce(old.sha256, '') OR ($6 AND excluded.sha256 = old.sha256)))`,
    [version.path, version.sha256, Math.round(version.stamp), version.language, writer, sameStampReplaces],
  );
  if (rowCount === 0) return false;
  const { rows: before } = await client.query<{ fact_id: string }>('DELETE FROM wiki_fact_places WHERE source = $1 RETURNING fact_id', [version.path]);
  if (version.sha256 !== null && version.facts.length > 0) await insertFacts(client, version);
  // A fact this source stated before and no live source states now is a tombstone: kept, never found.
  await client.query(
    `UPDATE wiki_facts f SET tombstoned_at = now(), last_source = $2 WHERE f.id = ANY($1) AND f.tombstoned_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM wiki_fact_places p WHERE p.fact_id = f.id)`,
    [[...new Set(before.map((row) => row.fact_id))], version.path],
  );
  return true;
}

async function insertFacts(client: PoolClient, version: SourceVersion): Promise<void> {
  const language = version.language ?? 'en';
  const distinct = [...new Map(version.facts.map((fact) => [fact.id, fact])).values()];
  const analysed = distinct.map((fact) => factTerms(fact.text, language));
  await client.query(
    `INSERT INTO wiki_facts AS old (id, text, language, terms, term_counts, length)
     SELECT i, t, $3, array_to_tsvector(ARRAY(SELECT jsonb_array_elements_text(tj::jsonb))), tc::jsonb, n
     FROM unnest($1::text[], $2::text[], $4::text[], $5::text[], $6::int[]) AS x(i, t, tj, tc, n)
     ON CONFLICT (id) DO UPDATE SET text = excluded.text, language = excluded.language, terms = excluded.terms,
       term_counts = excluded.term_counts, length = excluded.length, tombstoned_at = NULL, last_source = NULL`,
    [
      distinct.map((fact) => fact.id),
      distinct.map((fact) => fact.text),
      language,
      analysed.map((a) => JSON.stringify(a.terms)),
      analysed.map((a) => JSON.stringify(a.counts)),
      analysed.map((a) => a.length),
    ],
  );
  await client.query(
    `INSERT INTO wiki_fact_places (fact_id, source, line_start, line_end, heading)
     SELECT i, $1, s, e, h FROM unnest($2::text[], $3::int[], $4::int[], $5::text[]) AS x(i, s, e, h) ON CONFLICT DO NOTHING`,
    [version.path, version.facts.map((f) => f.id), version.facts.map((f) => f.lineStart), version.facts.map((f) => f.lineEnd), version.facts.map((f) => f.heading)],
  );
}

/** The sources the database holds: each one's sha256 (null: deleted) and stamp. */
export async function storedSources(db: Database): Promise<Map<string, { sha256: string | null; stamp: number }>> {
  const rows = await db.query<{ path: string; sha256: string | null; stamp: string }>('SELECT path, sha256, stamp FROM wiki_fact_sources');
  return new Map(rows.map((row) => [row.path, { sha256: row.sha256, stamp: Number(row.stamp) }]));
}
