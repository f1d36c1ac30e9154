import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigSource } from './load.js';
import type { WikiConfig } from './schema.js';
import { isDirectory, writeFileAtomic } from '../util/fs.js';
import { packageVersion } from '../util/package-root.js';
import type { Contract } from '../wiki/contract.js';
import { stateDir } from '../wiki/workspace.js';

/**
 * `.wiki/cache/settings.json`: what validating schema.md and wiki.config.json last gave,
 * so that a command whose two files are byte for byte the same skips YAML and the schema
 * library altogether (see config/settings.ts). It holds only what the files decide —
 * nothing from the environment, no secret — and is a cache: a missing, unreadable,
 * corrupt or foreign file is ignored, and failing to write one is never an error.
 */
export const SETTINGS_CACHE_FORMAT = 1;

/** The validated settings of one pair of files, read with no override variable and no flag. */
export interface CachedSettings {
  contract: Contract;
  /** schema.md's prose (its `text` is the file itself, read each time for the key). */
  body: string;
  config: WikiConfig;
  sources: Record<string, ConfigSource>;
}

export interface SettingsTexts {
  schemaText: string;
  /** undefined: there is no readable wiki.config.json. */
  configText: string | undefined;
}

interface CacheFile {
  format: number;
  key: string;
  /** sha256 of the key and the settings as written: a file edited or damaged since is ignored. */
  digest: string;
  settings: CachedSettings;
}

export function settingsCachePath(root: string): string {
  return path.join(stateDir(root), 'cache', 'settings.json');
}

/**
 * The cache key: the two files' exact text and the code that validated them — the cache
 * format, the package version and this build (the path, time and size of this module's
 * file, which every build rewrites), so a rebuilt or reinstalled `wiki` whose defaults or
 * rules changed under the same version number validates afresh. undefined when this
 * build cannot be identified: then nothing is cached.
 */
export async function settingsKey(texts: SettingsTexts): Promise<string | undefined> {
  const build = await buildStamp();
  if (build === undefined) return undefined;
  return sha256(JSON.stringify([SETTINGS_CACHE_FORMAT, build, texts.schemaText, texts.configText ?? null]));
}

/** The cached settings for `key`, or undefined when there are none that can be trusted. */
export async function readSettingsCache(root: string, key: string): Promise<CachedSettings | undefined> {
  let file: unknown;
  try {
    file = JSON.parse(await readFile(settingsCachePath(root), 'utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(file) || file.format !== SETTINGS_CACHE_FORMAT || file.key !== key) return undefined;
  if (typeof file.digest !== 'string' || file.digest !== digestOf(key, file.settings)) return undefined;
  return isCachedSettings(file.settings) ? file.settings : undefined;
}

/** The file's content for `settings`, made when they are validated (later changes to those objects do not leak in). */
export function settingsCacheContent(key: string, settings: CachedSettings): string {
  const file: CacheFile = { format: SETTINGS_CACHE_FORMAT, key, digest: digestOf(key, settings), settings };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * Write the cache atomically; false when it was not written. A workspace that has no
 * `.wiki/` yet gets none for a cache, and a read-only one simply keeps no cache.
 */
export async function writeSettingsCache(root: string, content: string): Promise<boolean> {
  try {
    if (!(await isDirectory(stateDir(root)))) return false;
    await writeFileAtomic(settingsCachePath(root), content);
    return true;
  } catch {
    return false;
  }
}

let stamp: Promise<string | undefined> | undefined;

function buildStamp(): Promise<string | undefined> {
  stamp ??= (async () => {
    try {
      const file = fileURLToPath(import.meta.url);
      const { mtimeMs, size } = await stat(file);
      return `${packageVersion()}|${file}|${mtimeMs}|${size}`;
    } catch {
      return undefined;
    }
  })();
  return stamp;
}

function digestOf(key: string, settings: unknown): string {
  return sha256(`${key}\n${JSON.stringify(settings)}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCachedSettings(value: unknown): value is CachedSettings {
  return (
    isRecord(value) &&
    isRecord(value.contract) &&
    typeof value.body === 'string' &&
    isRecord(value.config) &&
    isRecord(value.sources)
  );
}
