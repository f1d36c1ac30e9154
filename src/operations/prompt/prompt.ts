import type { WikiConfig } from '../../config/schema.js';
import type { Schema } from '../../wiki/contract.js';
import { isSpecialPage } from '../../wiki/contract.js';
import type { Page } from '../../wiki/page.js';
import { stringField } from '../../wiki/page.js';
import { isSurfaced, scopeOf, usageModeOf } from '../../wiki/access.js';
import { SOURCE_DATA_RULE } from '../../tools/source-delimiters.js';
import { charsForTokens } from '../../util/tokens.js';
import { canonicalTag, languageName } from '../../util/language-tag.js';

/** String.prototype.localeCompare's order, from one collator (localeCompare makes one per call: slow over 10k keys). */
const byKeyText = new Intl.Collator().compare;

export type OperationKind = 'ingest' | 'query' | 'query-save' | 'lint' | 'lint-fix' | 'translate';

const OPERATION_TEXT: Record<OperationKind, string> = {
  ingest:
    'You are ingesting one raw source into the wiki. Follow "Workflow: ingest a source" in the schema. ' +
    'The source is given in the first message (or its first window, with how to read the rest). ' +
    'Change an existing page with write_file edits (a sentence, a citation, a link, a section) or append_to_file, not by resending it whole.',
  query:
    'You are answering a question from the wiki. Follow "Workflow: answer a query" in the schema. ' +
    'Do not write or change any page: your final message is the answer.',
  'query-save':
    'You are answering a question from the wiki and saving the answer. Follow "Workflow: answer a query" in the schema, ' +
    'including step 5: write the answer as a page in wiki/concepts/. Your final message is the answer.',
  lint:
    'You are reviewing the wiki for problems the deterministic checks cannot see. Follow "Workflow: lint" in the schema. ' +
    'Do not change any page: report findings only, one `FINDING` line each.',
  'lint-fix':
    'You are reviewing and repairing the wiki. Follow "Workflow: lint" in the schema: report findings, one `FINDING` line each, ' +
    'and fix what you can with the tools: a sentence, a citation or a link with write_file edits, never by rewriting the whole page.',
  translate:
    'You are writing the wiki\'s pages anew in another language. Each message gives pages as they are: write each one whole with write_file ' +
    '(same path, so its key stays), its title, summary and body in the language named below. Keep every [[key]] link target (a label after | may be translated), ' +
    'every <!-- from: … --> citation exactly where its sentence is, refs, sources, created, usage_mode and visibility. Lines the message says a person wrote stay word for word, untranslated. ' +
    'Add nothing the page does not say. When a batch is written, end with a one-line summary.',
};

/**
 * The configuration the run context reads (wiki.config.json with flags and environment
 * applied). A run passes its effective configuration as it is: a key that shapes the prompt
 * is declared in config/schema.ts, named here and read in buildRunContext, never copied
 * through the command, the operation's options and the model run on its way.
 */
export type PromptSettings = Pick<WikiConfig, 'promptPageLimit' | 'promptPageTokens' | 'promptAlwaysChars' | 'language'>;

export interface SystemPromptContext {
  schema: Schema;
}

export interface RunContext {
  schema: Schema;
  /** What kind of run this is: said first, so the model knows its task before the pages. */
  operation?: OperationKind;
  /** read_file's default window in this run when the context budget makes it smaller than usual. */
  readLimit?: number;
  today: string;
  pages: Page[];
  /** promptPageLimit: how many pages to list by key before pointing the model to search_wiki; promptPageTokens: the tokens that list may take; promptAlwaysChars: see alwaysSection. */
  settings: PromptSettings;
  /** Keys most relevant to this run, best first: listed before the rest (which follow by key). */
  relevant?: readonly string[];
  /** Pages a human edited since the tool last wrote them (workspace-relative paths). */
  humanEdited?: ReadonlySet<string>;
  /** Whose scratch pages (wiki/user/<name>/) are seen, shadowing team pages with the same key. */
  user?: string | undefined;
}

/**
 * The system prompt holds only what is byte-stable across every run of one workspace,
 * whatever the command: the whole schema.md and the rule that source text is data. With
 * the tools it forms the cached prefix, so the next run — an ingest after a query, a lint
 * after an ingest — reads it from the provider's cache. What this run is, the date and the
 * page list go in `buildRunContext`.
 */
export function buildSystemPrompt(ctx: SystemPromptContext): string {
  return [ctx.schema.text.trim(), '', '---', '', SOURCE_DATA_RULE].join('\n');
}

/**
 * The volatile section, sent at the head of the first user message (after the cached
 * prefix): what this run is, today's date and the pages the model may link to. Listing linkable keys is what
 * keeps models from inventing links. Per-run blocks that must reach every prompt belong here.
 */
export function buildRunContext(ctx: RunContext): string {
  const contentPages = relevantFirst(
    pagesSeenBy(ctx.pages, ctx.user)
      .filter((page) => !isSpecialPage(ctx.schema.contract, page.path) && isSurfaced(page))
      .sort((a, b) => byKeyText(a.key, b.key)),
    ctx.relevant ?? [],
  );
  const lines: string[] = [];
  let charsLeft = charsForTokens(ctx.settings.promptPageTokens);
  for (const page of contentPages.slice(0, ctx.settings.promptPageLimit)) {
    const summary = stringField(page.frontmatter, 'summary') ?? stringField(page.frontmatter, 'title') ?? '';
    const edited = ctx.humanEdited?.has(page.path) ? ' [human-edited: keep their lines]' : '';
    const line = `- ${page.key} (${page.type ?? 'page'}, ${page.path})${edited}${summary ? `: ${oneLine(summary)}` : ''}`;
    charsLeft -= line.length + 1;
    if (charsLeft < 0) break;
    lines.push(line);
  }
  const more = contentPages.length - lines.length;
  const ranked = (ctx.relevant ?? []).length > 0 && more > 0;
  const pageSection =
    contentPages.length === 0
      ? 'The wiki has no pages yet. Any page you link to, you must create in this run.'
      : [
          `The wiki has ${contentPages.length} page(s). These keys exist and may be linked with [[key]]${ranked ? ' (the most relevant to this run first)' : ''}:`,
          ...lines,
          ...(more > 0 ? [`… and ${more} more not listed here: use search_wiki to find them before linking.`] : []),
        ].join('\n');
  return [
    ...(ctx.operation === undefined ? [] : ['# This run', '', OPERATION_TEXT[ctx.operation], '']),
    ...(ctx.readLimit === undefined ? [] : [`read_file windows in this run are about ${ctx.readLimit.toLocaleString('en-US')} characters (the context budget is small).`, '']),
    `Today is ${ctx.today}. Use it for created/updated dates.`,
    ...(ctx.settings.language === undefined ? [] : [languageInstruction(ctx.settings.language, ctx.operation)]),
    '',
    '# Existing pages',
    '',
    pageSection,
    ...alwaysSection(ctx.pages, ctx.user, ctx.settings.promptAlwaysChars),
  ].join('\n');
}

/**
 * What the `language` setting asks of this run. It sits in the run's first message, which
 * every request of the run carries, so the cached system prompt stays the same whatever the
 * language. Keys, quotes, names and citations are not translated: links and evidence must
 * still match.
 */
export function languageInstruction(tag: string, operation: OperationKind | undefined): string {
  const code = canonicalTag(tag) ?? tag;
  const name = `${languageName(code)} (${code})`;
  const pages =
    `Write in ${name}, whatever the language of the sources: the title, summary and body of every page you write, and any text you add to a page; ` +
    `set \`lang: ${code}\` in the frontmatter of a page you write whole. Existing keys, quotes, names and citations stay as they are.`;
  const review =
    `Write your review in ${name}: the message of each FINDING line and the reason of each ANSWER line (after \`::\`); ` +
    'the words FINDING and ANSWER, yes and no, rule names, paths, keys, quotes and names stay as they are.';
  switch (operation) {
    case 'query':
      return `Answer in ${name}, whatever the language of the sources and pages; quotes and names stay as they are.`;
    case 'lint':
      return review;
    case 'lint-fix':
      return `${review} ${pages}`;
    case 'query-save':
      return `Answer in ${name}. ${pages}`;
    default:
      return pages;
  }
}

/** The pages whose keys are in `relevant`, in that order, then the others in their own order. */
function relevantFirst(pages: readonly Page[], relevant: readonly string[]): Page[] {
  if (relevant.length === 0) return [...pages];
  const byKey = new Map(pages.map((page) => [page.key, page]));
  const first = [...new Set(relevant)].map((key) => byKey.get(key)).filter((page): page is Page => page !== undefined);
  const taken = new Set(first);
  return [...first, ...pages.filter((page) => !taken.has(page))];
}

/**
 * The `usage_mode: always` pages, after everything that stays the same from run to run:
 * each one's summary, then as much of their bodies as the budget allows, in key order.
 * Empty when there are none.
 */
export function alwaysSection(pages: readonly Page[], user: string | undefined, budget: number): string[] {
  const always = pagesSeenBy(pages, user)
    .filter((page) => usageModeOf(page.frontmatter) === 'always')
    .sort((a, b) => byKeyText(a.key, b.key));
  if (always.length === 0) return [];
  const lines = ['', '# Pages to keep in mind (usage_mode: always)', ''];
  for (const page of always) {
    const summary = stringField(page.frontmatter, 'summary') ?? stringField(page.frontmatter, 'title') ?? '';
    lines.push(`- ${page.key} (${page.path})${summary ? `: ${oneLine(summary)}` : ''}`);
  }
  let left = budget;
  for (const page of always) {
    const body = page.body.trim();
    if (left <= 0 || body === '') continue;
    const shown = body.length <= left ? body : `${body.slice(0, left)}\n… (cut: ${body.length - left} more characters; read ${page.path})`;
    left -= Math.min(body.length, left);
    lines.push('', `## ${page.key}`, '', shown);
  }
  return lines;
}

/**
 * The pages `user` sees: the team's, plus their own scratch pages, which shadow a team
 * page with the same key; other users' scratch pages are left out.
 */
export function pagesSeenBy(pages: readonly Page[], user: string | undefined): Page[] {
  const own = new Set(pages.filter((page) => user !== undefined && scopeOf(page.path) === user).map((page) => page.key));
  return pages.filter((page) => {
    const scope = scopeOf(page.path);
    if (scope !== undefined) return scope === user;
    return !own.has(page.key);
  });
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}
