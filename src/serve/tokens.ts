import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, InputError, UsageError } from '../errors.js';
import { stateFileStamp } from '../state/json-file.js';
import { readTextIfExists, writeFileAtomic } from '../util/fs.js';
import { realTokensPath, requireOwnersOnly, withTokensLock } from './tokens-file.js';

export { requireOutsideWorkspace } from './tokens-file.js';
export { TOKENS_ENV, tokensFilePath } from './tokens-path.js';

/**
 * The bearer tokens `wiki serve` accepts, in a file outside any workspace (the model reads
 * the workspace): each a name, the sha256 of the token, the visibility cap, the user whose
 * scratch scope it sees, when it was made, and the id of the one wiki it is for
 * (wiki-id.ts: the same in every clone of that wiki). A token is 32 random bytes, so an
 * unsalted hash is as hard to reverse as the token is to guess; the token itself is printed
 * once and never stored. One file may hold the tokens of several wikis; a record made
 * before tokens belonged to a wiki has no `wiki` and is accepted by none.
 */
export interface TokenRecord {
  name: string;
  sha256: string;
  maxVisibility: string;
  user?: string;
  createdAt: string;
  wiki?: string;
}

const TOKEN_PREFIX = 'wiki_';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const USER = /^[a-z0-9][a-z0-9_-]*$/;
const LEVEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const WIKI = /^[A-Za-z0-9][A-Za-z0-9-]{7,63}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export async function readTokens(file: string): Promise<TokenRecord[]> {
  requireOwnersOnly(file);
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
      (record.wiki === undefined || (typeof record.wiki === 'string' && WIKI.test(record.wiki))) &&
      typeof record.createdAt === 'string';
    if (!ok) fail(`entry ${i + 1} is not a token record`);
    const { name, sha256, maxVisibility, user, createdAt, wiki } = record as TokenRecord;
    return { name, sha256, maxVisibility, ...(user === undefined ? {} : { user }), createdAt, ...(wiki === undefined ? {} : { wiki }) };
  });
}

async function writeTokens(file: string, tokens: readonly TokenRecord[]): Promise<void> {
  // Written where a link leads, as a new file renamed over the old: a reader sees the old or the new, never half.
  const target = realTokensPath(file);
  await writeFileAtomic(target, `${JSON.stringify({ version: 1, tokens }, null, 2)}\n`);
  await chmod(target, 0o600);
}

/** Make the tokens file's folder (owner only) and check it; then run `change` under the file's lock. */
async function changeTokens<T>(file: string, command: string, change: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(realTokensPath(file)), { recursive: true, mode: 0o700 });
  requireOwnersOnly(file);
  return withTokensLock(file, command, change);
}

/** A record is for `wiki` when it names it; one with no wiki is for none. */
function isFor(record: TokenRecord, wiki: string | undefined): boolean {
  return record.wiki !== undefined && record.wiki === wiki;
}

/**
 * A new token named `name` for the wiki `spec.wiki`: its record is stored (hashed) and read
 * back, the token returned to be shown once. Names are unique within a wiki.
 */
export async function addToken(
  file: string,
  spec: { name: string; maxVisibility: string; user?: string | undefined; wiki: string },
  now = new Date(),
): Promise<{ token: string; record: TokenRecord }> {
  if (!NAME.test(spec.name)) throw new UsageError(`"${spec.name}" cannot name a token`, 'use letters, digits, ".", "-" and "_", e.g. ci-agent');
  if (spec.user !== undefined && !USER.test(spec.user)) throw new UsageError(`the user name "${spec.user}" cannot name a folder under wiki/user/`, 'use lowercase letters, digits, "-" and "_", e.g. --user alice');
  return changeTokens(file, 'wiki serve token add', async () => {
    const tokens = await readTokens(file);
    if (tokens.some((t) => t.name === spec.name && (isFor(t, spec.wiki) || t.wiki === undefined))) {
      throw new InputError(`a token named ${spec.name} already exists for this wiki in ${file}`, `remove it first with \`wiki serve token remove ${spec.name}\`, or pick another name`);
    }
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: TokenRecord = {
      name: spec.name,
      sha256: hashToken(token),
      maxVisibility: spec.maxVisibility,
      ...(spec.user ? { user: spec.user } : {}),
      createdAt: now.toISOString(),
      wiki: spec.wiki,
    };
    await writeTokens(file, [...tokens, record]);
    if (!(await readTokens(file)).some((t) => t.sha256 === record.sha256)) throw new ConfigError(`the token ${spec.name} was not kept in ${file}`, 'check the file and the disk, then add it again');
    return { token, record };
  });
}

/** Remove this wiki's token named `name` (or an older one that belongs to no wiki); false when there is none. */
export async function removeToken(file: string, name: string, wiki: string | undefined): Promise<boolean> {
  return changeTokens(file, 'wiki serve token remove', async () => {
    const tokens = await readTokens(file);
    const kept = tokens.filter((t) => !(t.name === name && (isFor(t, wiki) || t.wiki === undefined)));
    if (kept.length === tokens.length) return false;
    await writeTokens(file, kept);
    const left = await readTokens(file);
    if (left.some((t) => t.name === name && (isFor(t, wiki) || t.wiki === undefined))) throw new ConfigError(`the token ${name} is still in ${file}`, 'check the file, then remove it again');
    return true;
  });
}

/**
 * The tokens a running server accepts: this wiki's only, read again whenever the file
 * changes (one stat per request), so a token added or removed takes effect without a
 * restart. A file that turns unreadable, or unsafe, keeps no token valid: the server
 * fails closed. A token of another wiki is not told apart from an unknown one.
 */
export class TokenBook {
  private stamp: string | undefined | null = null;
  private byHash = new Map<string, TokenRecord>();
  private unbound = 0;

  constructor(
    private readonly file: string,
    private readonly log: (line: string) => void,
    /** This wiki's id now (undefined: it has none yet, so no token is for it). */
    private readonly wiki: () => string | undefined,
  ) {}

  /** How many of the file's tokens are this wiki's, and how many belong to no wiki (made before tokens were bound). */
  async load(): Promise<{ mine: number; unbound: number }> {
    await this.reload();
    return { mine: this.byHash.size, unbound: this.unbound };
  }

  async lookup(presented: string): Promise<TokenRecord | undefined> {
    if (stateFileStamp(this.file) !== this.stamp) await this.reload();
    return this.byHash.get(hashToken(presented));
  }

  private async reload(): Promise<void> {
    this.stamp = stateFileStamp(this.file);
    try {
      const wiki = this.wiki();
      const records = await readTokens(this.file);
      this.unbound = records.filter((record) => record.wiki === undefined).length;
      this.byHash = new Map(records.filter((record) => isFor(record, wiki)).map((record) => [record.sha256, record]));
    } catch (error) {
      this.byHash = new Map();
      this.log(`wiki serve: no token is accepted: ${(error as Error).message}`);
    }
  }
}
