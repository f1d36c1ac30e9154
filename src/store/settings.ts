/**
 * What the store reads of the configuration (wiki.config.json's `store` section). Declared
 * here, not taken from config/, so store/ imports nothing above it; a WikiConfig is one.
 */
export interface StoreSettings {
  store: { kind: 'files' | 'postgres'; url?: string | undefined; vectors?: VectorsSetting | undefined };
}

/** Where the semantic lane's vectors are ranked: pgvector where the server has it (`auto`), or as asked. */
export type VectorsSetting = 'auto' | 'pgvector' | 'arrays';

/** The variable that holds the database's URL; it wins over `store.url` and may carry a password. */
export const DATABASE_URL_ENV = 'WIKI_DATABASE_URL';

/** The database's URL: WIKI_DATABASE_URL, else `store.url`; undefined leaves libpq's PG* variables to say. */
export function databaseUrl(settings: StoreSettings, env: NodeJS.ProcessEnv): string | undefined {
  const fromEnv = env[DATABASE_URL_ENV]?.trim();
  return fromEnv ? fromEnv : settings.store.url;
}

/**
 * The database as a message names it — `postgres://user@host:5432/wiki` — with any password
 * left out, so an error or `wiki status` never prints one.
 */
export function describeDatabase(url: string | undefined, env: NodeJS.ProcessEnv): string {
  if (url !== undefined) {
    try {
      const parsed = new URL(url);
      parsed.password = '';
      parsed.search = '';
      return parsed.toString().replace(/^postgresql:/, 'postgres:');
    } catch {
      return 'the database in WIKI_DATABASE_URL (not a valid URL)';
    }
  }
  const host = env.PGHOST ?? 'localhost';
  const user = env.PGUSER ? `${env.PGUSER}@` : '';
  return `postgres://${user}${host}:${env.PGPORT ?? '5432'}/${env.PGDATABASE ?? env.PGUSER ?? ''} (from the PG* variables)`;
}
