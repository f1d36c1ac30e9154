import type { Pool, PoolClient } from 'pg';
import { ConfigError } from '../../errors.js';
import { databaseUrl, describeDatabase, type StoreSettings } from '../settings.js';

/** How long a connection attempt waits before the database counts as unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * One wiki's database: a pool of connections (node-postgres) and the name messages give it.
 * The client library is loaded only here, so the file backend never loads it.
 */
export class Database {
  protected constructor(
    readonly pool: Pool,
    /** The database as messages name it, without a password. */
    readonly name: string,
  ) {}

  /**
   * Connect and check that the database answers. An unreachable database, refused
   * credentials or a missing database is a ConfigError (exit 2) naming it: a store the
   * configuration chose is never silently replaced by the files.
   */
  static async connect(settings: StoreSettings, env: NodeJS.ProcessEnv = process.env): Promise<Database> {
    const url = databaseUrl(settings, env);
    const name = describeDatabase(url, env);
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ ...(url === undefined ? {} : { connectionString: url }), connectionTimeoutMillis: CONNECT_TIMEOUT_MS, max: 4 });
    // An idle connection the server drops (a restart) is an error on the pool; the next query reconnects.
    pool.on('error', () => undefined);
    const database = new Database(pool, name);
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw unreachable(name, error);
    }
    return database;
  }

  async query<Row extends object>(sql: string, values: unknown[] = []): Promise<Row[]> {
    try {
      return (await this.pool.query(sql, values)).rows as Row[];
    } catch (error) {
      throw lostOrFailed(this.name, error);
    }
  }

  /** Run `work` in one transaction on one connection; it is rolled back if `work` throws. */
  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw unreachable(this.name, error);
    }
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw lostOrFailed(this.name, error);
    } finally {
      client.release();
    }
  }

  /**
   * Hear `channel`'s notifications on a connection of their own; resolves with a function
   * that stops. A lost connection is heard as `onLost` (the caller falls back to polling).
   */
  async listen(channel: string, onNotify: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      client.on('error', onLost);
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      throw unreachable(this.name, error);
    }
    return async () => {
      await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
      client.release();
    };
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENOENT']);

function unreachable(name: string, error: unknown): ConfigError {
  const { code, message } = error as { code?: string; message?: string };
  const reason = code === '28P01' || code === '28000' ? 'the server refused the credentials' : code === '3D000' ? 'no such database on the server' : (message ?? String(error));
  return new ConfigError(
    `database ${name} unreachable: ${reason}`,
    `search and facts are configured to use it (store.kind is postgres): start the server or set ${'WIKI_DATABASE_URL'} (password in PGPASSWORD or ~/.pgpass; TLS with PGSSLMODE), or \`wiki config set store.kind files\``,
  );
}

/** A query's failure: the connection lost is the database unreachable; any other error is kept as it is. */
function lostOrFailed(name: string, error: unknown): unknown {
  if (error instanceof ConfigError) return error;
  const code = (error as { code?: string }).code;
  if (code !== undefined && CONNECTION_CODES.has(code)) return unreachable(name, error);
  if (/Connection terminated|connection timeout/i.test((error as Error).message ?? '')) return unreachable(name, error);
  return error;
}
