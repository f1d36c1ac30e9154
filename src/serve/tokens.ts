import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, InputError, UsageError } from '../errors.js';
import { stateFileStamp } from '../state/json-file.js';
import { readTextIfExists, writeFileAtomic } from '../util/fs.js';

/**
 * The bearer tokens `wiki serve` accepts, in a file outside any workspace (the model reads
 * the workspace): each a name, the sha256 of the token, the visibility cap and the user
 * whose scratch scope it sees. A token is 32 random bytes, so an unsalted hash is as hard to
 * reverse as the token is to guess; the token itself is printed once and never stored.
 */
export interface TokenRecord {
  name: string;
  sha256: string;
  maxVisibility: string;
  user?: string;
  createdAt: string;
}

export const TOKENS_ENV = 'WIKI_SERVE_TOKENS';
const TOKEN_PREFIX = 'wiki_';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const USER = /^[a-z0-9][a-z0-9_-]*$/;
const LEVEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `--tokens FILE`, else $WIKI_SERVE_TOKENS, else the user's config folder. */
export function tokensFilePath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? (env[TOKENS_ENV]?.trim() || undefined);
  if (chosen) return path.resolve(chosen);
  const config = env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), '.config');
  return path.join(config, 'wiki', 'serve-tokens.json');
}

/** Refuse a tokens file inside the workspace, where the model could read it and git could commit it. */
export async function requireOutsideWorkspace(file: string, root: string): Promise<void> {
  const realRoot = await realpath(root);
  const folder = await realpath(path.dirname(file)).catch(() => path.resolve(path.dirname(file)));
  const where = path.join(folder, path.basename(file));
  const relative = path.relative(realRoot, where);
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
    throw new UsageError(`the tokens file ${file} is inside the workspace`, `keep it outside (the model reads the workspace): e.g. --tokens ~/.config/wiki/serve-tokens.json or ${TOKENS_ENV}`);
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export async function readTokens(file: string): Promise<TokenRecord[]> {
  const text = await readTextIfExists(file);
  if (text === undefined) return [];
  const fail = (why: string): never => {
    throw new ConfigError(`tokens file ${file}: ${why}`, 'fix it, or remove it and add the tokens again with `wiki serve token add NAME`');
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('not valid JSON');
  }
  const tokens = (value as { version?: unknown; tokens?: unknown } | null)?.tokens;
  if ((value as { version?: unknown } | null)?.version !== 1 || !Array.isArray(tokens)) return fail('not a tokens file (version 1)');
  return tokens.map((entry: unknown, i): TokenRecord => {
    const record = entry as Partial<Record<keyof TokenRecord, unknown>> | null;
    const ok =
      record !== null &&
      typeof record === 'object' &&
      typeof record.name === 'string' && NAME.test(record.name) &&
      typeof record.sha256 === 'string' && /^[0-9a-f]{64}$/.test(record.sha256) &&
      typeof record.maxVisibility === 'string' && LEVEL.test(record.maxVisibility) &&
      (record.user === undefined || (typeof record.user === 'string' && USER.test(record.user))) &&
      typeof record.createdAt === 'string';
    if (!ok) fail(`entry ${i + 1} is not a token record`);
    const { name, sha256, maxVisibility, user, createdAt } = record as TokenRecord;
    return user === undefined ? { name, sha256, maxVisibility, createdAt } : { name, sha256, maxVisibility, user, createdAt };
  });
}

async function writeTokens(file: string, tokens: readonly TokenRecord[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify({ version: 1, tokens }, null, 2)}\n`);
  await chmod(file, 0o600);
}

/** A new token for `name`: its record is stored (hashed), the token returned to be shown once. */
export async function addToken(file: string, spec: { name: string; maxVisibility: string; user?: string | undefined }, now = new Date()): Promise<{ token: string; record: TokenRecord }> {
  if (!NAME.test(spec.name)) throw new UsageError(`"${spec.name}" cannot name a token`, 'use letters, digits, ".", "-" and "_", e.g. ci-agent');
  if (spec.user !== undefined && !USER.test(spec.user)) throw new UsageError(`the user name "${spec.user}" cannot name a folder under wiki/user/`, 'use lowercase letters, digits, "-" and "_", e.g. --user alice');
  const tokens = await readTokens(file);
  if (tokens.some((t) => t.name === spec.name)) {
    throw new InputError(`a token named ${spec.name} already exists in ${file}`, `remove it first with \`wiki serve token remove ${spec.name}\`, or pick another name`);
  }
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const record: TokenRecord = { name: spec.name, sha256: hashToken(token), maxVisibility: spec.maxVisibility, ...(spec.user ? { user: spec.user } : {}), createdAt: now.toISOString() };
  await writeTokens(file, [...tokens, record]);
  return { token, record };
}

export async function removeToken(file: string, name: string): Promise<boolean> {
  const tokens = await readTokens(file);
  const kept = tokens.filter((t) => t.name !== name);
  if (kept.length === tokens.length) return false;
  await writeTokens(file, kept);
  return true;
}

/**
 * The tokens a running server accepts: read again whenever the file changes (one stat per
 * request), so a token added or removed takes effect without a restart. A file that turns
 * unreadable keeps no token valid: the server fails closed.
 */
export class TokenBook {
  private stamp: string | undefined | null = null;
  private byHash = new Map<string, TokenRecord>();

  constructor(
    private readonly file: string,
    private readonly log: (line: string) => void,
  ) {}

  async load(): Promise<number> {
    await this.reload();
    return this.byHash.size;
  }

  async lookup(presented: string): Promise<TokenRecord | undefined> {
    if (stateFileStamp(this.file) !== this.stamp) await this.reload();
    return this.byHash.get(hashToken(presented));
  }

  private async reload(): Promise<void> {
    this.stamp = stateFileStamp(this.file);
    try {
      this.byHash = new Map((await readTokens(this.file)).map((record) => [record.sha256, record]));
    } catch (error) {
      this.byHash = new Map();
      this.log(`wiki serve: no token is accepted: ${(error as Error).message}`);
    }
  }
}
