import { existsSync } from 'node:fs';
import path from 'node:path';
import { rawContentLines, rawLineCounter } from '../../sources/line-count.js';
import { humanEditBase } from '../../state/human-edits.js';
import { carriedHumanFields, carriedHumanLines, setCarriedHumanLines } from '../../state/human-lines.js';
import type { ValidationVerdict, WriteAlongside } from '../../tools/context.js';
import type { Contract } from '../../wiki/contract.js';
import { PageIndex } from '../../wiki/page-index.js';
import { parsePage, type Page } from '../../wiki/page.js';
import { describeFinding } from '../../wiki/validate/finding.js';
import { keepsValue, modelWriteFindings, protectedBody, protectedFields, type ProtectedFields } from '../../wiki/validate/write-guard.js';
import { validateWrite } from '../../wiki/validate-write.js';

/**
 * The write-time check behind write_file and append_to_file: the page contract plus the
 * rules of a model's write (tool-owned fields, provenance, near-duplicates, human edits),
 * and the bookkeeping that keeps the owner's lines protected once a rewrite lands.
 */
export class ModelWriteCheck {
  private readonly rawLineCount: (rawPath: string) => number | undefined;
  /** Per page validated for a write: the human lines and fields it holds now, kept once the write lands. */
  private readonly human = new Map<string, { lines: string[]; fields: ProtectedFields }>();
  /**
   * By path, the text last parsed there (validated, or found there before a write) with its
   * parse: the write that lands is usually the page just validated, and a page's next write
   * is checked against what the last one left.
   */
  private readonly parses = new Map<string, { content: string; page: Page }>();

  constructor(
    private readonly root: string,
    private readonly contract: Contract,
    private readonly pages: PageIndex,
    private readonly options: { overwriteEdits: boolean; dryRun: boolean; writtenThisRun: (relPath: string) => boolean; deny?: readonly string[] },
  ) {
    this.rawLineCount = rawLineCounter(rawContentLines(root));
  }

  rawExists = (raw: string): boolean => existsSync(path.join(this.root, raw.split('#')[0] ?? raw));

  async validate(relPath: string, content: string, previous: string | undefined, alongside?: WriteAlongside): Promise<ValidationVerdict> {
    const { contract, rawExists } = this;
    const current = previous === undefined ? undefined : this.parsed(relPath, previous);
    // The pages of a group written together, other than this one, as a small index of their own.
    const together = alongside?.pages && PageIndex.fromPages(alongside.pages.filter((p) => p.path !== relPath).map((p) => parsePage(p.path, p.content, contract)), contract);
    const verdict = validateWrite(
      this.pages,
      { path: relPath, content },
      { contract, rawExists, deny: this.options.deny, rawLineCount: this.rawLineCount, alongside: { linkKeys: alongside?.linkKeys, pages: together } },
    );
    this.parses.set(relPath, { content, page: verdict.page });
    const humanEdit = previous === undefined || this.options.writtenThisRun(relPath) ? undefined : await humanEditBase(this.root, relPath, previous);
    const carried = previous === undefined ? [] : await carriedHumanLines(this.root, relPath);
    const carriedFields = previous === undefined ? {} : await carriedHumanFields(this.root, relPath);
    const readable = current && !current.parseError ? current : undefined;
    const protectedLines = readable ? protectedBody(readable, { contract, humanEdit, carriedHumanLines: carried }) : [];
    const fields = readable ? protectedFields(readable, { contract, humanEdit, carriedHumanFields: carriedFields }) : {};
    // Nothing to remember (or forget) after the write when the page holds no human lines or fields and carried none.
    if (protectedLines.length > 0 || carried.length > 0 || Object.keys(fields).length > 0 || Object.keys(carriedFields).length > 0) {
      this.human.set(relPath, { lines: protectedLines, fields });
    } else {
      this.human.delete(relPath);
    }
    const guarded = this.options.overwriteEdits ? {} : { humanEdit, carriedHumanLines: carried, carriedHumanFields: carriedFields, protectedLines };
    const guard = modelWriteFindings(verdict.page, previous, { contract, index: this.pages, alongside: together, rawExists, previousPage: current, ...guarded });
    const errors = [...verdict.errors, ...guard];
    const refusedAsNear = guard.some((f) => f.rule === 'near-duplicate');
    const warnings = verdict.warnings.filter((f) => !(refusedAsNear && f.rule === 'near-duplicate'));
    return { ok: errors.length === 0, errors: errors.map(describeFinding), warnings: warnings.map(describeFinding) };
  }

  /** `content` at `relPath` parsed, reusing the last parse there when it was of this very text. */
  parsed(relPath: string, content: string): Page {
    const last = this.parses.get(relPath);
    if (last && last.content === content) return last.page;
    const page = parsePage(relPath, content, this.contract);
    this.parses.set(relPath, { content, page });
    return page;
  }

  /** After a write landed: the human lines and fields the new content still holds stay protected. */
  async written(relPath: string, content: string): Promise<void> {
    const human = this.human.get(relPath);
    if (human === undefined || this.options.dryRun) return;
    const page = this.parsed(relPath, content);
    const kept = new Set(content.split('\n').map((line) => line.trim()));
    const fields = Object.fromEntries(Object.entries(human.fields).filter(([field, value]) => keepsValue(page.frontmatter[field], value)));
    await setCarriedHumanLines(this.root, relPath, human.lines.filter((line) => kept.has(line)), fields);
  }
}
