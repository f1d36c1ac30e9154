import { createHash } from 'node:crypto';
import path from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../../util/fs.js';
import { readPage } from '../../wiki/page-read.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { GROUNDING_RULES } from '../../wiki/validate/rules/index.js';

/**
 * What one `lint` model run is handed: at most `lint.fixBatch` findings, the most important
 * first (errors, then the wiki's structure, then grounding), leaving out the sentences the
 * model kept earlier with a reason — until their page or the lines they cite change.
 */

export { GROUNDING_RULES } from '../../wiki/validate/rules/index.js';

/** Where kept sentences are remembered: derived state, safe to delete (they are then sent again). */
export const KEPT_FILE = '.wiki/lint-kept.json';

interface KeptEntry {
  path: string;
  line?: number;
  reason: string;
  at: string;
}

export interface KeptFile {
  version: 2;
  kept: Record<string, KeptEntry>;
  /** Questions a model answered "no" (the cited lines do not support the sentence): warnings until the sentence or its lines change. */
  refuted?: Record<string, KeptEntry>;
}

export interface LintBatch {
  /** The findings handed to the model, most important first. */
  findings: Finding[];
  /** Findings left for a later run. */
  remaining: number;
  /** Findings not handed over because the model kept them earlier (page and cited lines unchanged). */
  keptEarlier: number;
}

/** Errors, then structure (every other rule, and what the last model review left open), then grounding. */
export function orderForModel(findings: readonly Finding[]): Finding[] {
  const rank = (f: Finding): number => (f.severity === 'error' ? 0 : GROUNDING_RULES.has(f.rule) ? 2 : 1);
  return findings.map((f, index) => ({ f, index })).sort((a, b) => rank(a.f) - rank(b.f) || a.index - b.index).map(({ f }) => f);
}

/**
 * A grounding finding's identity for "kept": its message (the sentence and what its cited
 * lines say) and the page line that holds the sentence (with its citations), so an edit to
 * the sentence, to what it cites or to those lines sends it again — but an edit elsewhere on
 * the page does not (a played review saw every keep of a page undone by a fix two sections away).
 */
export function keptKey(finding: Finding, pageText: string): string {
  const line = pageText.split('\n')[(finding.line ?? 1) - 1] ?? '';
  return createHash('sha256').update(`${finding.rule}\n${finding.path}\n${finding.message}\n${line}`).digest('hex').slice(0, 24);
}

export async function loadKept(root: string): Promise<KeptFile> {
  try {
    const parsed = JSON.parse((await readTextIfExists(path.join(root, KEPT_FILE))) ?? '') as KeptFile;
    if (parsed.version !== 2) return { version: 2, kept: {} };
    // Reasons are shown in reports and handed to later reviews: only well-formed entries count.
    return { version: 2, kept: wellFormed(parsed.kept), refuted: wellFormed(parsed.refuted) };
  } catch {
    return { version: 2, kept: {} };
  }
}

function wellFormed(entries: unknown): Record<string, KeptEntry> {
  if (typeof entries !== 'object' || entries === null) return {};
  return Object.fromEntries(
    Object.entries(entries as Record<string, unknown>).filter((entry): entry is [string, KeptEntry] => {
      const value = entry[1] as Partial<KeptEntry> | null;
      return typeof value === 'object' && value !== null && typeof value.path === 'string' && typeof value.reason === 'string' && value.reason.length <= 2000 && !value.reason.includes('\n');
    }),
  );
}

export function planBatch(root: string, findings: readonly Finding[], kept: KeptFile, size: number): LintBatch {
  const pages = new Map<string, string>();
  const pageText = (page: string): string => {
    let text = pages.get(page);
    if (text === undefined) pages.set(page, (text = readPage(root, page) ?? ''));
    return text;
  };
  let keptEarlier = 0;
  const open = orderForModel(findings.filter((f) => f.severity !== 'question')).filter((f) => {
    if (!GROUNDING_RULES.has(f.rule) || !kept.kept[keptKey(f, pageText(f.path))]) return true;
    keptEarlier++;
    return false;
  });
  return { findings: open.slice(0, size), remaining: Math.max(0, open.length - size), keptEarlier };
}

/** The findings with `keptBecause` set where a review kept the sentence (page and cited lines unchanged since). */
export function markKept(root: string, findings: readonly Finding[], kept: KeptFile): Finding[] {
  if (Object.keys(kept.kept).length === 0) return [...findings];
  const pages = new Map<string, string>();
  return findings.map((f) => {
    if (!GROUNDING_RULES.has(f.rule) || f.keptBecause !== undefined) return f;
    let text = pages.get(f.path);
    if (text === undefined) pages.set(f.path, (text = readPage(root, f.path) ?? ''));
    const entry = kept.kept[keptKey(f, text)];
    return entry ? { ...f, keptBecause: entry.reason } : f;
  });
}

/**
 * `KEEP <path>:<line> :: <why>` lines from the model's final message; text between the line
 * number and `::` (a quote telling two sentences of one line apart: `KEEP a.md:12 ("…") :: why`)
 * is kept as `quote`.
 */
export function parseKeeps(text: string): Array<{ path: string; line: number; reason: string; quote?: string }> {
  const keeps: Array<{ path: string; line: number; reason: string; quote?: string }> = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(?:[-*]\s*)?KEEP\s+`?([^\s`]+?):(\d+)`?(?:\s+(.*?))?\s*::\s*(.+?)\s*$/.exec(line);
    if (!match) continue;
    const quote = (match[3] ?? '').replace(/^[("“'‘\s—–-]+|[)"”'’\s]+$/g, '');
    keeps.push({ path: match[1] ?? '', line: Number(match[2]), reason: match[4] ?? '', ...(quote ? { quote } : {}) });
  }
  return keeps;
}

/** Remember the batch's grounding findings the model kept, each with its reason; returns how many. */
export async function rememberKept(root: string, kept: KeptFile, batch: readonly Finding[], keeps: ReturnType<typeof parseKeeps>): Promise<number> {
  let added = 0;
  const at = new Date().toISOString();
  // Two sentences on one line are two findings with the same path:line: each KEEP line takes the next one not yet kept.
  const taken = new Set<Finding>();
  for (const keep of keeps) {
    const candidates = batch.filter((f) => GROUNDING_RULES.has(f.rule) && f.path === keep.path && f.line === keep.line && !taken.has(f));
    // A quote picks the sentence it is from, when two on one line were handed.
    const quoted = keep.quote === undefined ? undefined : candidates.find((f) => f.message.includes(keep.quote?.slice(0, 40) ?? ''));
    const finding = quoted ?? candidates[0];
    if (!finding) continue;
    taken.add(finding);
    kept.kept[keptKey(finding, readPage(root, finding.path) ?? '')] = { path: finding.path, line: keep.line, reason: keep.reason.slice(0, 1000), at };
    added++;
  }
  if (added > 0) await writeFileAtomic(path.join(root, KEPT_FILE), `${JSON.stringify(kept, null, 2)}\n`);
  return added;
}
