import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { updateFacts } from '../../src/facts/extract.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { listRawSources } from '../../src/sources/raw-files.js';
import { claimsOf } from '../../src/facts/claims.js';
import { claimTerms } from '../../src/facts/claim-terms.js';
import { isOrdinaryEnglish } from '../../src/facts/english-words.js';
import { withoutMath } from '../../src/facts/math-text.js';
import { TermAnalyses } from '../../src/facts/grounding.js';
import { groundPages } from '../../src/operations/lint/grounding.js';
import { listPageFiles } from '../../src/wiki/page-files.js';
import { parsePage, type Page } from '../../src/wiki/page.js';

/**
 * Grounding on a wiki's own pages (a workspace whose `.wiki/facts.db` is built): how many
 * claim sentences get a warning (what the check is sure of) or a question as they stand,
 * and how many deliberate alterations of each claim nothing was found on are caught — a
 * number changed, a capitalised name swapped ("Hopper"), a lower-case tool name swapped
 * ("javac" for "mypy"), a negation added — as a warning or a question, and as a warning.
 */
export interface PageGroundingMeasurement {
  pages: number;
  claims: number;
  /** Claim sentences with a warning. */
  flagged: number;
  /** Claim sentences with a question. */
  questions: number;
  /** Findings by rule and severity (`miscited warning`). */
  byRule: Record<string, number>;
  altered: Record<AlterationKind, Alterations>;
}

export interface Alterations {
  planted: number;
  /** Caught by a warning or a question. */
  flagged: number;
  /** Caught by a warning. */
  warned: number;
  byRule: Record<string, number>;
}

/**
 * The day the grounding check's rules (src/facts/, the grounding findings of src/operations/lint/)
 * last changed what they find: a played wiki made after it measures them on pages nobody tuned
 * on. An ISO time, UTC. Change it with the rules; `npm run eval -- --grounding` prints it.
 */
export const GROUNDING_RULES_CHANGED = '2026-12-02T06:34Z';

export type AlterationKind = 'number' | 'name' | 'tool' | 'negation';
export const ALTERATION_KINDS: readonly AlterationKind[] = ['number', 'name', 'tool', 'negation'];

/** A capitalised name no source here mentions, and an English word: the check is sure of it whatever a dictionary says. */
const SWAPPED_NAME = 'Hopper';
/** Lower-case tool names, neither an English word: one swapped for another the sources do not mention is caught. */
const SWAPPED_TOOLS = ['javac', 'mypy'];
const AUXILIARY = /\b(is|are|was|were|can|does|do|did|has|have|had|will|may|must|should|would|could)\b/;

export async function measurePageGrounding(root: string): Promise<PageGroundingMeasurement> {
  const pages = await loadContentPages(root);
  const report = await groundPages(root, pages);
  if (!report) throw new Error(`${root} has no .wiki/facts.db: run \`wiki facts rebuild\` there first`);
  const byRule: Record<string, number> = {};
  for (const f of report.findings) byRule[`${f.rule} ${f.severity}`] = (byRule[`${f.rule} ${f.severity}`] ?? 0) + 1;
  const foundLines = new Set(report.findings.map((f) => `${f.path}:${f.line}`));
  const measurement: PageGroundingMeasurement = {
    pages: report.pages.length,
    claims: report.pages.reduce((sum, p) => sum + p.sentences, 0),
    flagged: report.pages.reduce((sum, p) => sum + p.flagged, 0),
    questions: report.findings.filter((f) => f.severity === 'question').length,
    byRule,
    altered: { number: empty(), name: empty(), tool: empty(), negation: empty() },
  };
  // Each text's terms, analysed once for every alteration rather than once each.
  const terms = new TermAnalyses();
  for (const page of pages) {
    for (const claim of claimsOf(page.body)) {
      const fileLine = page.bodyLine + claim.line - 1;
      if (foundLines.has(`${page.path}:${fileLine}`)) continue;
      for (const kind of ALTERATION_KINDS) {
        const body = alterClaim(page.body, claim.line, claim.checked, kind, claim.code);
        if (body === undefined) continue;
        const altered = { ...page, body };
        const result = await groundPages(root, [altered], { linkedFrom: pages, saveCache: false, terms });
        const near = result?.findings.filter((f) => f.line !== undefined && f.line >= fileLine && f.line <= fileLine + 2) ?? [];
        const hit = near.find((f) => f.severity === 'warning') ?? near[0];
        const slot = measurement.altered[kind];
        slot.planted++;
        if (hit) {
          slot.flagged++;
          if (hit.severity === 'warning') slot.warned++;
          slot.byRule[`${hit.rule} ${hit.severity}`] = (slot.byRule[`${hit.rule} ${hit.severity}`] ?? 0) + 1;
        }
      }
    }
  }
  return measurement;
}

/** A wiki folder (wiki/ and raw/) copied to a temporary workspace, its facts built, measured, removed. */
export async function measureWikiFolder(folder: string | 'example'): Promise<PageGroundingMeasurement> {
  const root = await mkdtemp(path.join(tmpdir(), 'wiki-grounding-eval-'));
  try {
    if (folder === 'example') await initWorkspace(root, { example: true, force: true });
    else {
      await cp(path.join(folder, 'wiki'), path.join(root, 'wiki'), { recursive: true });
      await cp(path.join(folder, 'raw'), path.join(root, 'raw'), { recursive: true });
    }
    await updateFacts(root, await listRawSources(root), { grain: 'sentence', similarity: 0.85, maxSourceBytes: 64 * 1024 * 1024 });
    return await measurePageGrounding(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function empty(): Alterations {
  return { planted: 0, flagged: 0, warned: 0, byRule: {} };
}

async function loadContentPages(root: string): Promise<Page[]> {
  const files = listPageFiles(root, 'wiki').map((file) => file.path).filter((p) => !/^wiki\/(index|log)\.md$/.test(p)).sort();
  return Promise.all(files.map(async (file) => parsePage(file, await readFile(path.join(root, file), 'utf8'))));
}

/** The body with one claim altered (on its first line, where its words are), or undefined when the claim offers nothing of that kind. */
export function alterClaim(body: string, line: number, checked: string, kind: AlterationKind, code: readonly string[] = []): string | undefined {
  const lines = body.split('\n');
  const at = line - 1;
  const text = lines[at];
  if (text === undefined) return undefined;
  const terms = claimTerms(checked);
  let altered: string | undefined;
  if (kind === 'number') {
    const value = terms.numbers.find((n) => !terms.namedNumbers.includes(n));
    if (value === undefined) return undefined;
    const literal = new RegExp(`(?<![\\w.,])${value.toLocaleString('en').replace(/[.,]/g, '[.,]?')}(?![\\w]|[.,]\\d)`);
    const plain = new RegExp(`(?<![\\w.,])${String(value).replace('.', '\\.')}(?![\\w]|[.,]\\d)`);
    // In prose, where the claim states it (a number in code or in a citation is no claim's).
    const prose = text.replace(/`[^`]*`|<!--[^>]*-->|\[\[[^\]]*\]\]/g, (part) => ' '.repeat(part.length));
    const match = literal.exec(prose) ?? plain.exec(prose);
    if (!match) return undefined;
    altered = `${text.slice(0, match.index)}${value + 7}${text.slice(match.index + match[0].length)}`;
  } else if (kind === 'name') {
    // A word the check reads as a name, where it stands in prose (not in code or a link).
    const names = new Set(terms.names);
    const words = checked.split(/\s+/).map((w) => w.replace(/[^\p{L}]/gu, '')).filter((w) => /^\p{Lu}\p{Ll}{2,}$/u.test(w));
    const name = words.find((w) => names.has(claimTerms(w).words[0] ?? '') && new RegExp(`(?<![\`\\[|\\w])${w}(?![\`\\]\\w])`).test(text));
    if (!name) return undefined;
    altered = text.replace(new RegExp(`(?<![\`\\[|\\w])${name}(?![\`\\]\\w])`), SWAPPED_NAME);
  } else if (kind === 'tool') {
    // A lower-case word that is no English word (a tool, a command, a keyword), in prose or in code, swapped for a tool name.
    // Not inside math: `\\leq` is notation, not a tool a page names (the check reads no names there).
    const tool = [withoutMath(checked), ...code].flatMap((part) => part.match(/(?<![\p{L}\p{N}_.'’-])\p{Ll}[\p{Ll}\p{N}]{2,}(?![\p{L}\p{N}_'’-])/gu) ?? []).find((word) => !isOrdinaryEnglish(word) && !/\d/.test(word));
    if (!tool) return undefined;
    const at = new RegExp(`(?<![\\p{L}\\p{N}_.'’\\[|/-])${tool}(?![\\p{L}\\p{N}_'’\\]|-])`, 'u');
    if (!at.test(text)) return undefined;
    altered = text.replace(at, SWAPPED_TOOLS.find((name) => name !== tool) ?? 'javac');
  } else {
    if (terms.negated) return undefined;
    const verb = AUXILIARY.exec(checked);
    if (!verb) return undefined;
    const phrase = checked.slice(verb.index, verb.index + verb[0].length + 12).split(' ').slice(0, 2).join(' ');
    const index = text.indexOf(phrase);
    if (index < 0) return undefined;
    altered = `${text.slice(0, index + verb[0].length)} not${text.slice(index + verb[0].length)}`;
  }
  if (altered === text) return undefined;
  lines[at] = altered;
  return lines.join('\n');
}

/**
 * A played wiki's own account of when it was made (`held-out.json`: {"made": "2026-12-03" or
 * "2026-12-02T14:00Z", "note": "…"}): held out when made after the last rule change (a date
 * alone is its midnight, UTC: a wiki made the day the rules changed gives the time).
 */
export async function heldOutNote(folder: string): Promise<string> {
  try {
    const meta = JSON.parse(await readFile(path.join(folder, 'held-out.json'), 'utf8')) as { made?: unknown };
    if (typeof meta.made !== 'string') return 'tuning (no date)';
    const made = Date.parse(meta.made);
    if (Number.isNaN(made)) return `${meta.made}? (not a date)`;
    return `${meta.made} ${made > Date.parse(GROUNDING_RULES_CHANGED) ? 'HELD OUT' : 'tuning'}`;
  } catch {
    return 'tuning';
  }
}

/** Every played wiki kept in `fixtures` (`played-wiki*` with wiki/ and raw/), by name (played-wiki-10 after -9). */
export async function playedWikis(fixtures: string): Promise<string[]> {
  const names = (await readdir(fixtures)).filter((name) => name.startsWith('played-wiki') && existsSync(path.join(fixtures, name, 'wiki')) && existsSync(path.join(fixtures, name, 'raw')));
  return names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).map((name) => path.join(fixtures, name));
}
