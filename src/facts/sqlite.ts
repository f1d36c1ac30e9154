import type BetterSqlite3 from 'better-sqlite3';
import { ConfigError } from '../errors.js';

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;
/**
 * A better-sqlite3 native addon to load instead of the one installed with the package
 * (better-sqlite3's `nativeBinding`), for a platform with no prebuilt binary.
 */
export const SQLITE_BINDING_VARIABLE = 'WIKI_SQLITE_BINDING';

/** Opens a database file with the loaded addon. */
export type OpenDatabase = (file: string, options?: BetterSqlite3.Options) => Database;

let loading: Promise<OpenDatabase> | undefined;

/**
 * SQLite, loaded on first use: better-sqlite3 is a native addon, and a machine where it
 * cannot load must still run every command that needs no facts. The addon is tried once
 * (an in-memory database), so a failure is reported as what it is — the addon, not the
 * store's file — in one line that says how to fix it.
 */
export function loadSqlite(env: NodeJS.ProcessEnv = process.env): Promise<OpenDatabase> {
  loading ??= (async () => {
    const nativeBinding = env[SQLITE_BINDING_VARIABLE] || undefined;
    try {
      const { default: Sqlite } = await import('better-sqlite3');
      const open: OpenDatabase = (file, options = {}) => new Sqlite(file, nativeBinding ? { ...options, nativeBinding } : options);
      open(':memory:').close();
      return open;
    } catch (error) {
      loading = undefined;
      throw sqliteUnavailable(error, nativeBinding);
    }
  })();
  return loading;
}

function sqliteUnavailable(error: unknown, binding: string | undefined): ConfigError {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() ?? '';
  const from = binding ? `the addon ${SQLITE_BINDING_VARIABLE} names (${binding})` : "better-sqlite3's native addon";
  return new ConfigError(
    `the facts store (.wiki/facts.db) needs SQLite, and ${from} could not be loaded: ${reason}`,
    sqliteFix(error, binding),
  );
}

/**
 * better-sqlite3 is an optional dependency: where its addon neither downloaded nor built,
 * npm left the package out, and `npm rebuild` then finds nothing to build — only an
 * install brings it back.
 */
function sqliteFix(error: unknown, binding: string | undefined): string {
  if (binding) return `point ${SQLITE_BINDING_VARIABLE} at a better_sqlite3.node built for this Node.js, or unset it`;
  const packageMissing = (error as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND';
  const step = packageMissing ? '`npm install`' : '`npm rebuild better-sqlite3`';
  return `run ${step} in the folder wiki is installed in (it needs a C++ toolchain where no prebuilt binary exists), or set ${SQLITE_BINDING_VARIABLE} to a better_sqlite3.node built for this Node.js`;
}

/** Why SQLite cannot be loaded (message and fix, one line), or undefined when it can. */
export async function sqliteProblem(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  try {
    await loadSqlite(env);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return `${error.message} — ${error.hint ?? ''}`;
  }
}
