import { Database } from '../../src/store/postgres/connection.js';

/**
 * A Database on PGlite (Postgres compiled to WebAssembly, in this process) with pgvector's
 * `vector` extension available: where Debian's Postgres has no pgvector, the tests and the
 * eval run pgvector's SQL path on it. The store's own client (node-postgres) talks to it
 * through PGlite's node-postgres adapter, so every query is the one a real server gets.
 * PGlite is one connection, so LISTEN is PGlite's own. Dev dependencies only: the tool never
 * loads PGlite.
 */
export async function pgliteDatabase(): Promise<Database> {
  const [{ PGlite }, { vector }, { createPgConfig }, { default: pg }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
    import('@electric-sql/pglite/node-postgres'),
    import('pg'),
  ]);
  const lite = await PGlite.create({ extensions: { vector } });
  return PgliteDatabase.over(lite, new pg.Pool(createPgConfig(lite)));
}

type PGlite = import('@electric-sql/pglite').PGlite;

class PgliteDatabase extends Database {
  private lite!: PGlite;

  static over(lite: PGlite, pool: import('pg').Pool): PgliteDatabase {
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
