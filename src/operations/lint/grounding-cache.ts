import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClaimCitation } from '../../facts/claims.js';
import { englishWordsFile } from '../../facts/english-words.js';
import { isDirectory, writeFileAtomic } from '../../util/fs.js';
import { packageVersion } from '../../util/package-root.js';
import { stateDir } from '../../wiki/workspace.js';

/**
 * `.wiki/cache/grounding.json`: each page's grounding result from the last lint, so a page
 * whose text, sources' facts, cited files and checker are all unchanged is not analysed
 * again. Keyed per page by a hash of all of them (`pageKey`); the file also names the
 * checker (a hash of this program's own code), so a new build recomputes everything.
 * A cache: a missing, unreadable, oversized, corrupt or foreign file — or one entry of it
 * that is not exactly what lint writes — is ignored and recomputed; failing to write is
 * never an error. Only the tool writes under `.wiki/` (the model's tools cannot).
 */

export const GROUNDING_CACHE_FORMAT = 3;

export type FlaggedKind = 'ungrounded' | 'miscited' | 'unsupported-number';

/** A flagged sentence as lint reports it: everything its message and its repair evidence are made of. */
export interface FlaggedSentence {
  /** 1-based line in the page body. */
  line: number;
  text: string;
  kind: FlaggedKind;
  /** For ungrounded and miscited. */
  reason?: string;
  /** For unsupported-number. */
  numbers?: string[];
  /** Whether the check is sure (a warning) or asks (a question). */
  sure: boolean;
  /** Checked against its cited lines (else against its sources' closest facts). */
  cited: boolean;
  citations: ClaimCitation[];
  /** Ids of its evidence, best first: facts (`f-…`) or cited lines (`raw/x.md#L17`); at most three. */
  evidence: string[];
}

export interface PageResult {
  score: number;
  sentences: number;
  flagged: FlaggedSentence[];
  /** The linked pages its uncited claims were checked against, and a hash of their bodies then: reused only while they hash alike. */
  linked?: { keys: string[]; hash: string };
}

interface CacheFile {
  format: number;
  checker: string;
  pages: Record<string, { key: string } & PageResult>;
}

export function groundingCachePath(root: string): string {
  return path.join(stateDir(root), 'cache', 'grounding.json');
}

/** Bytes a cache file may have per page grounded, beyond a base: a larger one is not read. */
const BYTES_PER_PAGE = 64 * 1024;
const BASE_BYTES = 1024 * 1024;

export class GroundingResultCache {
  private readonly fresh = new Map<string, { key: string } & PageResult>();
  private reused = 0;

  private constructor(
    private readonly root: string,
    readonly checker: string | undefined,
    private readonly stored: ReadonlyMap<string, { key: string } & PageResult>,
  ) {}

  /** The cache for `checker` (undefined: this build cannot be identified, nothing is cached). */
  static async open(root: string, pages: number, checker: string | undefined): Promise<GroundingResultCache> {
    return new GroundingResultCache(root, checker, checker === undefined ? new Map() : await readEntries(root, checker, BASE_BYTES + pages * BYTES_PER_PAGE));
  }

  /** The result stored for `page` under exactly `key`, if any. */
  get(page: string, key: string): PageResult | undefined {
    const entry = this.stored.get(page);
    if (entry === undefined || entry.key !== key) return undefined;
    return entry;
  }

  /** Keep `result` for `page` (written by `save`), counting a reuse when it came from the file. */
  keep(page: string, key: string, result: PageResult, reused: boolean): void {
    this.fresh.set(page, { key, ...result });
    if (reused) this.reused++;
  }

  get reusedPages(): number {
    return this.reused;
  }

  /** Write what this lint grounded, when it differs from the file; false when nothing was written. */
  async save(): Promise<boolean> {
    if (this.checker === undefined) return false;
    if (this.reused === this.fresh.size && this.fresh.size === this.stored.size) return false;
    const file: CacheFile = { format: GROUNDING_CACHE_FORMAT, checker: this.checker, pages: Object.fromEntries(this.fresh) };
    try {
      if (!(await isDirectory(stateDir(this.root)))) return false;
      await writeFileAtomic(groundingCachePath(this.root), JSON.stringify(file), { durable: false });
      return true;
    } catch {
      return false;
    }
  }
}

/** A page's cache key: everything its grounding reads. */
export function pageKey(parts: { checker: string; title: string; body: string; facts: string; citedFiles: readonly string[]; lang?: string }): string {
  // The page's language changes how it is read; a page without one keeps the key it always had.
  const lang = parts.lang === undefined ? [] : [`lang:${parts.lang}`];
  return hashOf([String(GROUNDING_CACHE_FORMAT), parts.checker, parts.title, parts.body, parts.facts, ...parts.citedFiles, ...lang]);
}

/** sha256 of texts, each led by its length (no two lists hash alike); JSON.stringify is slow here, as pdf.js replaces it. */
export function hashOf(texts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(`${text.length}:`).update(text);
  return hash.digest('hex');
}

/** A hash of facts: all of each that grounding reads. */
export function factsHash(facts: ReadonlyArray<{ id: string; text: string; source?: string; lineStart?: number; lineEnd?: number }>): string {
  return hashOf(facts.flatMap((fact) => [fact.id, fact.text, fact.source ?? '', String(fact.lineStart ?? ''), String(fact.lineEnd ?? '')]));
}

let checkerHash: Promise<string | undefined> | undefined;

/**
 * The checker's identity: the package version and a hash of every code file of this
 * program (the bundle's folder, or the compiled or source tree this module is in), so any
 * change to what counts as support — or to anything else — recomputes every page.
 */
export function checkerVersion(): Promise<string | undefined> {
  checkerHash ??= (async () => {
    try {
      const here = path.dirname(fileURLToPath(import.meta.url));
      const inTree = path.basename(here) === 'lint' && path.basename(path.dirname(here)) === 'operations';
      const codeRoot = inTree ? path.resolve(here, '..', '..') : here;
      const files = (await readdir(codeRoot, { recursive: true }))
        .filter((file) => /\.(?:js|mjs|ts)$/.test(file) && !file.endsWith('.d.ts'))
        .sort();
      const hash = createHash('sha256').update(packageVersion());
      for (const file of files) hash.update(`\n${file}\n`).update(await readFile(path.join(codeRoot, file)));
      // The list of ordinary English words decides findings too.
      hash.update(await readFile(englishWordsFile()));
      return hash.digest('hex');
    } catch {
      return undefined;
    }
  })();
  return checkerHash;
}

async function readEntries(root: string, checker: string, maxBytes: number): Promise<Map<string, { key: string } & PageResult>> {
  const entries = new Map<string, { key: string } & PageResult>();
  let parsed: unknown;
  try {
    const file = groundingCachePath(root);
    // Never through a link, never a huge file someone put there.
    const info = await lstat(file);
    if (!info.isFile() || info.size > maxBytes) return entries;
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return entries;
  }
  if (!isRecord(parsed) || parsed.format !== GROUNDING_CACHE_FORMAT || parsed.checker !== checker || !isRecord(parsed.pages)) return entries;
  for (const [page, entry] of Object.entries(parsed.pages)) {
    if (isEntry(entry)) entries.set(page, entry);
  }
  return entries;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const KINDS: ReadonlySet<string> = new Set(['ungrounded', 'miscited', 'unsupported-number']);

function isLine(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isCitation(value: unknown): value is ClaimCitation {
  if (!isRecord(value) || typeof value.file !== 'string') return false;
  if (value.first === undefined && value.last === undefined) return true;
  return isLine(value.first) && isLine(value.last) && value.last >= value.first;
}

function isFlagged(value: unknown): value is FlaggedSentence {
  if (!isRecord(value) || !isLine(value.line) || typeof value.text !== 'string' || typeof value.kind !== 'string' || !KINDS.has(value.kind)) return false;
  if (typeof value.cited !== 'boolean' || typeof value.sure !== 'boolean' || !Array.isArray(value.citations) || !value.citations.every(isCitation)) return false;
  if (!isStrings(value.evidence) || value.evidence.length > 3) return false;
  return value.kind === 'unsupported-number' ? isStrings(value.numbers) && value.numbers.length > 0 : typeof value.reason === 'string';
}

function isEntry(value: unknown): value is { key: string } & PageResult {
  if (!isRecord(value) || typeof value.key !== 'string' || !Array.isArray(value.flagged)) return false;
  const { score, sentences, flagged, linked } = value;
  if (linked !== undefined && !(isRecord(linked) && isStrings(linked.keys) && typeof linked.hash === 'string')) return false;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1) || typeof sentences !== 'number' || !Number.isInteger(sentences) || sentences < 0) return false;
  return flagged.length <= sentences && flagged.every(isFlagged);
}
