import { describe } from 'vitest';

/**
 * pgvector's SQL path for the tests of the database store, on PGlite's `vector` extension
 * (scripts/measure/pglite-database.ts): Debian packages Postgres but not pgvector. Where the
 * packages are missing the tests are skipped with the reason; CI sets WIKI_REQUIRE_PGLITE=1
 * (in .ci/run), where that is a failure instead.
 */
const required = process.env.WIKI_REQUIRE_PGLITE === '1';

async function missing(): Promise<string | undefined> {
  try {
    await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-pgvector')]);
    return undefined;
  } catch (error) {
    return `@electric-sql/pglite or @electric-sql/pglite-pgvector not installed (npm ci): ${(error as Error).message.split('\n')[0]}`;
  }
}

export const pgliteMissing = await missing();

/** `describe` for a suite that needs pgvector through PGlite: skipped with its reason where absent (a failure under CI). */
export function describeWithPglite(name: string, body: () => void): void {
  if (pgliteMissing === undefined || required) {
    if (pgliteMissing !== undefined) throw new Error(`PGlite is required here (WIKI_REQUIRE_PGLITE=1): ${pgliteMissing}`);
    describe(name, body);
    return;
  }
  console.warn(`skipped, PGlite unavailable: ${name}: ${pgliteMissing}`);
  describe.skip(name, body);
}

export { pgliteDatabase } from '../../scripts/measure/pglite-database.js';
