import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { updateFacts } from '../../src/facts/extract.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { listRawSources } from '../../src/sources/raw-files.js';
import { claimsOf } from '../../src/facts/claims.js';
import { claimTerms } from '../../src/facts/claim-terms.js';
import { groundPages } from '../../src/operations/lint/grounding.js';
import { listPageFiles } from '../../src/wiki/page-files.js';
import { parsePage, type Page } from '../../src/wiki/page.js';

/**
 * Grounding on a wiki's own pages (a workspace whose `.wiki/facts.db` is built): how many
 * claim sentences are flagged as they stand, and how many of three deliberate alterations
 * of each supported claim are flagged — a number changed, a name swapped, a negation added.
 */
export interface PageGroundingMeasurement {
  pages: number;
  claims: number;
  flagged: number;
  byRule: Record<string, number>;
  altered: Record<AlterationKind, { planted: number; flagged: number; byRule: Record<string, number> }>;
}

export type AlterationKind = 'number' | 'name' | 'negation';

const SWAPPED_NAME = 'Okonkwo';
const AUXILIARY = /\b(is|are|was|were|can|does|do|did|has|have|had|will|may|must|should|would|could)\b/;

export async function measurePageGrounding(root: string): Promise<PageGroundingMeasurement> {
  const pages = await loadContentPages(root);
  const report = await groundPages(root, pages);
  if (!report) throw new Error(`${root} has no .wiki/facts.db: run \`wiki facts rebuild\` there first`);
  const byRule: Record<string, number> = {};
  for (const f of report.findings) byRule[f.rule] = (byRule[f.rule] ?? 0) + 1;
  const flaggedLines = new Set(report.findings.map((f) => `${f.path}:${f.line}`));
  const measurement: PageGroundingMeasurement = {
    pages: report.pages.length,
    claims: report.pages.reduce((sum, p) => sum + p.sentences, 0),
    flagged: report.findings.length,
    byRule,
    altered: { number: empty(), name: empty(), negation: empty() },
  };
  for (const page of pages) {
    for (const claim of claimsOf(page.body)) {
      const fileLine = page.bodyLine + claim.line - 1;
      if (flaggedLines.has(`${page.path}:${fileLine}`)) continue;
      for (const kind of ['number', 'name', 'negation'] as const) {
        const body = alterClaim(page.body, claim.line, claim.checked, kind);
        if (body === undefined) continue;
        const altered = { ...page, body };
        const result = await groundPages(root, [altered], { linkedFrom: pages, saveCache: false });
        const hit = result?.findings.find((f) => f.line !== undefined && f.line >= fileLine && f.line <= fileLine + 2);
        const slot = measurement.altered[kind];
        slot.planted++;
        if (hit) {
          slot.flagged++;
          slot.byRule[hit.rule] = (slot.byRule[hit.rule] ?? 0) + 1;
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

function empty(): { planted: number; flagged: number; byRule: Record<string, number> } {
  return { planted: 0, flagged: 0, byRule: {} };
}

async function loadContentPages(root: string): Promise<Page[]> {
  const files = listPageFiles(root, 'wiki').map((file) => file.path).filter((p) => !/^wiki\/(index|log)\.md$/.test(p)).sort();
  return Promise.all(files.map(async (file) => parsePage(file, await readFile(path.join(root, file), 'utf8'))));
}

/** The body with one claim altered (on its first line, where its words are), or undefined when the claim offers nothing of that kind. */
export function alterClaim(body: string, line: number, checked: string, kind: AlterationKind): string | undefined {
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
    const match = literal.exec(text) ?? plain.exec(text);
    if (!match) return undefined;
    altered = `${text.slice(0, match.index)}${value + 7}${text.slice(match.index + match[0].length)}`;
  } else if (kind === 'name') {
    // A word the check reads as a name, where it stands in prose (not in code or a link).
    const names = new Set(terms.names);
    const words = checked.split(/\s+/).map((w) => w.replace(/[^\p{L}]/gu, '')).filter((w) => /^\p{Lu}\p{Ll}{2,}$/u.test(w));
    const name = words.find((w) => names.has(claimTerms(w).words[0] ?? '') && new RegExp(`(?<![\`\\[|\\w])${w}(?![\`\\]\\w])`).test(text));
    if (!name) return undefined;
    altered = text.replace(new RegExp(`(?<![\`\\[|\\w])${name}(?![\`\\]\\w])`), SWAPPED_NAME);
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
