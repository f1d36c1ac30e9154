import { describe } from 'vitest';
import { Database } from '../../src/store/postgres/connection.js';

/**
 * pgvector's SQL path for the tests of the database store: Debian packages Postgres but not
 * pgvector, so the `vector` extension is had from PGlite (Postgres compiled to WebAssembly,
 * with pgvector as `@electric-sql/pglite-pgvector`), in this process. The store's own client
 * (node-postgres) talks to it through PGlite's node-postgres adapter, so every query is the
 * one a real server gets. PGlite is one connection: LISTEN is PGlite's own. Where the packages
 * are missing the tests are skipped with the reason; CI sets WIKI_REQUIRE_PGLITE=1 (in
 * .ci/run), where that is a failure instead.
 */
const required = process.env.WIKI_REQUIRE_PGLITE === '1';

type Modules = [typeof import('@electric-sql/pglite'), typeof import('@electric-sql/pglite-pgvector'), typeof import('@electric-sql/pglite/node-postgres')];

async function loadModules(): Promise<Modules | string> {
  try {
    return await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-pgvector'), import('@electric-sql/pglite/node-postgres')]);
  } catch (error) {
    return `@electric-sql/pglite or @electric-sql/pglite-pgvector not installed (npm ci): ${(error as Error).message.split('\n')[0]}`;
  }
}

const modules = await loadModules();
export const pgliteMissing: string | undefined = typeof modules === 'string' ? modules : undefined;

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

/** A Database on a fresh in-memory PGlite with pgvector available (not yet created: `wiki store init` does that). */
export async function pgliteDatabase(): Promise<Database> {
  if (typeof modules === 'string') throw new Error(`PGlite unavailable: ${modules}`);
  const [{ PGlite }, { vector }, { createPgConfig }] = modules;
  const { default: pg } = await import('pg');
  const lite = await PGlite.create({ extensions: { vector } });
  return PgliteDatabase.over(lite, new pg.Pool(createPgConfig(lite)));
}

class PgliteDatabase extends Database {
  private lite!: import('@electric-sql/pglite').PGlite;

  static over(lite: import('@electric-sql/pglite').PGlite, pool: import('pg').Pool): PgliteDatabase {
    const db = new PgliteDatabase(pool, 'pglite://memory');
    db.lite = lite;
    return db;
  }

  override async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    return this.lite.listen(channel, onNotify);
  }

  override async close(): Promise<void> {
    await super.close();
    await this.lite.close();
  }
}
