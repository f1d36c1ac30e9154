import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../../util/fs.js';
import { listPageFiles } from '../../wiki/page-files.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { hashOf } from './grounding-cache.js';

/**
 * What the last model review of the wiki left: when it ran, for whom, the findings it
 * reported that it did not fix (a later `lint --fix` hands them to its model), and — when it
 * left none open — what the pages were then: a review with nothing to hand over, of pages no
 * one changed since, finds nothing new (played review O paid for one on a cron-like second
 * run). A review belongs to its reader: the model working for Alice sees neither Bob's
 * scratch pages nor his findings, so her review skips nothing for Bob and hands him nothing.
 * Derived state, safe to delete: the next run then reviews again.
 */

export const REVIEW_FILE = '.wiki/lint-review.json';

/** Longest message of a remembered finding (the file is read back into a model's request). */
const MESSAGE_CHARS = 600;

export interface ReviewState {
  /** sha256 over every page's path and text under wiki/ after the review; only when it left nothing open. */
  pages?: string;
  at: string;
  /** The model's findings (`llm-…`) the review reported and left open. */
  open: Finding[];
  /** Whom the review was for: the user (`--user`), or null for the team. A state without it counts for no one. */
  reader?: string | null;
}

/** A hash of every page under wiki/ (paths and texts). */
export async function pagesHash(root: string): Promise<string> {
  const files = listPageFiles(root, 'wiki').map((file) => file.path).sort();
  const texts: string[] = [];
  for (const file of files) {
    texts.push(file);
    try {
      texts.push(await readFile(path.join(root, file), 'utf8'));
    } catch {
      texts.push('');
    }
  }
  return hashOf(texts);
}

/** The last review, when it was made for `reader` (undefined: the team). */
export async function lastReview(root: string, reader: string | undefined): Promise<ReviewState | undefined> {
  try {
    const parsed = JSON.parse((await readTextIfExists(path.join(root, REVIEW_FILE))) ?? '') as { version?: number; pages?: unknown; at?: unknown; open?: unknown; reader?: unknown };
    if ((parsed.version !== 1 && parsed.version !== 2) || typeof parsed.at !== 'string') return undefined;
    if (parsed.reader === undefined || parsed.reader !== (reader ?? null)) return undefined;
    const open = Array.isArray(parsed.open) ? parsed.open.flatMap(reviewFinding) : [];
    return { at: parsed.at, open, reader: reader ?? null, ...(typeof parsed.pages === 'string' && open.length === 0 ? { pages: parsed.pages } : {}) };
  } catch {
    return undefined;
  }
}

export async function rememberReview(root: string, reader: string | undefined, state: Omit<ReviewState, 'reader'>): Promise<void> {
  const open = state.open.map((f) => ({ rule: f.rule, severity: f.severity, path: f.path, message: f.message }));
  const saved = { version: 2, at: state.at, reader: reader ?? null, ...(open.length === 0 && state.pages ? { pages: state.pages } : {}), open };
  await writeFileAtomic(path.join(root, REVIEW_FILE), `${JSON.stringify(saved, null, 2)}\n`);
}

/** A remembered model finding as it may be handed on: an `llm-` rule, a page under wiki/, one bounded line (anything else is dropped). */
function reviewFinding(value: unknown): Finding[] {
  if (typeof value !== 'object' || value === null) return [];
  const { rule, path: page, message } = value as Record<string, unknown>;
  if (typeof rule !== 'string' || !/^llm-[a-z][a-z-]*$/.test(rule)) return [];
  if (typeof page !== 'string' || !/^wiki\/[^\s]+$/.test(page) || page.split('/').includes('..')) return [];
  if (typeof message !== 'string' || message.trim() === '') return [];
  const line = message.replace(/\s+/g, ' ').trim();
  return [{ rule, severity: 'warning', path: page, message: line.length <= MESSAGE_CHARS ? line : `${line.slice(0, MESSAGE_CHARS - 1)}…` }];
}
