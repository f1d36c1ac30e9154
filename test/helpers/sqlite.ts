import { describe } from 'vitest';
import { sqliteProblem } from '../../src/facts/sqlite.js';

/**
 * better-sqlite3 is an optional dependency: on a machine where its addon neither downloaded
 * nor built, `npm install` succeeds and every command but the facts ones works. There the
 * tests that need SQLite are skipped with the reason, so a new user's `npm test` is green;
 * CI sets WIKI_REQUIRE_SQLITE=1 (in .ci/run), where a missing addon fails them instead.
 * The test process loads the same node_modules the built CLI does, so one probe answers for both.
 */
export const sqliteMissing: string | undefined = await sqliteProblem();
const sqliteRequired = process.env.WIKI_REQUIRE_SQLITE === '1';
const skipSqliteTests = sqliteMissing !== undefined && !sqliteRequired;

/** `describe` for a suite that needs SQLite: skipped with its reason where the addon cannot load. */
export function describeWithSqlite(name: string, body: () => void): void {
  if (!skipSqliteTests) {
    describe(name, body);
    return;
  }
  console.warn(`skipped, SQLite unavailable: ${name}: ${sqliteMissing}`);
  describe.skip(name, body);
}

/**
 * What a command prints on stderr with the facts warning taken out where SQLite cannot load:
 * ingest then warns, rightly, that it extracted no facts, and a test about something else
 * still expects nothing more.
 */
export function stderrBesideFactsWarning(stderr: string): string {
  if (!skipSqliteTests) return stderr;
  return stderr
    .split('\n')
    .filter((line) => !line.startsWith('warning: facts not extracted: '))
    .join('\n');
}
