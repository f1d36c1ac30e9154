import { sentencesByParagraph } from './segment.js';
import { targetToKey } from '../wiki/links.js';

/**
 * The claims of a page body: its sentences that state something, each with the raw lines
 * it cites. Not claims: headings, code (fenced or inline), tables, link keys and labels,
 * "See …" pointers, navigation (an uncited list entry that is a link and a few words saying
 * what is there, or any length of them under "See also" or "Related …"), what a source
 * leaves out ("the source does not name its authors"), and what the tool itself writes (a
 * saved answer's `## Evidence` section, `<!-- wiki:…:start -->` … `<!-- wiki:…:end -->` blocks).
 *
 * A sentence cites what its own `<!-- from: raw/x.md#L10-20 -->` comment names; a sentence
 * without one takes the next citation in its paragraph (a paragraph cited once at its end);
 * a citation standing alone on a line, or ending a line that ends with a colon, covers the
 * uncited sentences after it up to the next heading (with the citation ending their list,
 * when that one cites lines beyond it).
 */

export interface ClaimCitation {
  file: string;
  /** 1-based inclusive line range, when the citation gives one. */
  first?: number;
  last?: number;
}

export interface Claim {
  /** The sentence as a reader sees it (links shown by their labels, code kept). */
  text: string;
  /** The sentence without link keys, labels and code: what is compared with evidence. */
  checked: string;
  /** 1-based line in the body. */
  line: number;
  citations: ClaimCitation[];
  /** Whether it cites what a later sentence of its paragraph cites (it has no citation of its own): a lead-in ("The two mechanisms solve different problems.") may frame what that sentence says. */
  leadsIn: boolean;
  /** The page keys its paragraph links to (`[[key]]`): the pages a saved answer cites for it. */
  links: string[];
  /** Its inline code, without the backticks: identifiers a source must mention. */
  code: string[];
}

const FROM_COMMENT = /([.!?。！？]["')\]’”」』）]*)?[ \t]*<!--\s*from:\s*([^\s#>]+)(#[^\s>]*)?\s*-->/g;
const FROM_COMMENT_TEST = /<!--\s*from:/;
const LINE_RANGE = /^#L(\d+)(?:-L?(\d+))?$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const TOOL_BLOCK_START = /<!--\s*wiki:([\w-]+):start\s*-->/;
/** Sections the tool writes under a page (a saved answer's evidence); sections that point to other pages ("See also", "Related pages"). */
const TOOL_SECTION = /^evidence\b/i;
const NAVIGATION_SECTION = /^(?:see also|related\b|further reading|links\b)/i;
/** A list entry that is a link (or a few) and a few words saying what is there: "- [[never-type]]: the divergence its `else` block requires." */
const LINK_ENTRY = /^\s*(?:[-*+]|\d+[.)])\s+\[\[[^\]\n]+\]\](?:\s*(?:,|and|or|&)\s*\[\[[^\]\n]+\]\])*\s*(?::|—|–|\s-\s)\s*(.*)$/;
/** Words past which such an entry's description states something of its own. */
const LINK_ENTRY_WORDS = 12;
const WIKI_LINK = /\[\[([^\]|\n]*)(?:\|([^\]\n]*))?\]\]/g;
const MARKDOWN_LINK = /!?\[([^\]\n]*)\]\([^)\n]*\)/g;
const INLINE_CODE = /(`+)([^`\n]+?)\1/g;
/** "(see Open issues)", "(cf. Section 4)": a pointer inside a sentence states nothing either. */
const PARENTHETICAL_POINTER = /\((?:see|see also|cf\.?)\s[^()]*\)/gi;
const POINTER = /^(?:see|see also|for more|more in|related|source|sources)\b/i;
/** A sentence about the wiki itself ("this wiki is stricter", "this page collects …") states nothing a source could. */
const ABOUT_THE_WIKI = /\b(?:this|our) (?:wiki|page|note|notes|section|summary|answer)\b|\bthe wiki (?:has|holds|contains|lacks|says)\b|^saved answer\b/i;
/** A sentence saying where the wiki keeps something ("A comparison is saved as [[…]]"): about the wiki, not the sources. */
const KEPT_IN_THE_WIKI = new RegExp(
  `\\b(?:saved|filed|stored|kept|recorded|collected)\\s+(?:as|in|under|at|on)\\s+(?:the page\\s+|a page\\s+)?\uE001|\\b(?:described|covered|explained|detailed|discussed|treated)\\s+(?:on|in)\\s+(?:the page\\s+|its own page\\s+)?\uE001[\\s\\S]\\s*[.;]?\\s*$`,
  'i',
);
/**
 * A sentence about what a source (or the wiki) leaves out — "the source does not name its
 * authors", "it reports no measurements" — states an absence, which no cited line can show;
 * a played wiki's "Limitations" notes were flagged for it every time.
 */
const SOURCE_SUBJECT = /\b(?:the|this|its|their) (?:source|sources|rfc|proposal|document|design|paper|draft|article|authors?|text|wiki|folder|workspace|file|explainer|readme|copy|spec|specification|report|study|manuscript|abstract|front matter)\b|^it\b/i;
const SAYS_NOTHING_OF =
  /\b(?:does not|doesn['’]t|do not|don['’]t|did not|didn['’]t|never) (?:say|state|name|mention|give|report|record|specify|discuss|describe|explain|list|include|cover|address|measure|show|tell|define|indicate|quantify|compare|spell out|detail)\b|\b(?:says|states|reports|records|gives|names|mentions|offers|includes|lists|specifies|measures) (?:no|nothing)\b|\bis silent\b|\blacks\b|\bleaves (?:open|unsaid|unstated)\b|\b(?:is|are|was|were) not (?:stated|given|named|mentioned|specified|reported|listed|recorded)\b/i;

const CITE = '\uE000';
const LINK = '\uE001';
const CODE = '\uE002';
const SLOT_BASE = 0xe100;

export function claimsOf(body: string): Claim[] {
  const citations: ClaimCitation[] = [];
  const shown: string[] = [];
  /** Per slot of `shown`, the page key a link there names. */
  const linkKeys = new Map<number, string>();
  const slot = (index: number): string => String.fromCharCode(SLOT_BASE + (index % 0x1700));
  const lines = body.split('\n');
  /** Per 0-based line, the citations a block citation above it gives its uncited sentences. */
  const blockAt: Array<number[] | undefined> = [];
  let block: number[] | undefined;
  let fence: string | undefined;
  let toolBlock: string | undefined;
  let toolSectionLevel: number | undefined;
  /** Under a "See also" or "Related …" heading: its uncited list entries with links only point elsewhere. */
  let navigation = false;
  const prepared = lines.map((line, index) => {
    if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined;
      return line;
    }
    if (toolBlock !== undefined) {
      if (line.includes(`<!-- wiki:${toolBlock}:end -->`)) toolBlock = undefined;
      return '';
    }
    const opened = FENCE.exec(line);
    if (opened?.[1]) {
      fence = opened[1];
      return line;
    }
    const tool = TOOL_BLOCK_START.exec(line);
    if (tool?.[1]) {
      if (!line.includes(`<!-- wiki:${tool[1]}:end -->`)) toolBlock = tool[1];
      return '';
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1]?.length ?? 1;
      if (toolSectionLevel !== undefined && level <= toolSectionLevel) toolSectionLevel = undefined;
      if (toolSectionLevel === undefined && TOOL_SECTION.test(heading[2] ?? '')) toolSectionLevel = level;
      navigation = NAVIGATION_SECTION.test(heading[2] ?? '');
      block = undefined;
      return line;
    }
    if (toolSectionLevel !== undefined) return '';
    const entry = LINK_ENTRY.exec(line);
    if (entry && !FROM_COMMENT_TEST.test(line) && (navigation || (entry[1] ?? '').split(/\s+/).filter(Boolean).length <= LINK_ENTRY_WORDS)) return '';
    const cited: number[] = [];
    let text = line.replace(FROM_COMMENT, (_whole, punctuation: string | undefined, file: string, fragment: string | undefined) => {
      const [, first, last] = LINE_RANGE.exec(fragment ?? '') ?? [];
      const citation: ClaimCitation = { file };
      if (first !== undefined) {
        citation.first = Number(first);
        citation.last = last === undefined ? Number(first) : Number(last);
      }
      cited.push(citations.push(citation) - 1);
      // Before the sentence's full stop, so the citation stays with the sentence it ends.
      return ` ${CITE}${slot(citations.length - 1)}${punctuation ?? ''}`;
    });
    // Several comments after one full stop ("here. <!-- from: a --> <!-- from: b -->"): the stop goes after the last, or the sentence runs on into the next.
    text = text.replace(new RegExp(`(${CITE}[\\s\\S])([.!?。！？]["')\\]’”」』）]*)((?:\\s*${CITE}[\\s\\S])+)`, 'g'), (_whole, first: string, stop: string, more: string) => `${first}${more}${stop}`);
    const bare = text.replace(new RegExp(`${CITE}[\\s\\S]`, 'g'), '').trim();
    if (cited.length > 0 && bare === '') block = cited;
    else if (cited.length > 0 && /:$/.test(bare)) block = cited.slice(-1);
    if (bare === '') text = '';
    text = text
      .replace(INLINE_CODE, (_whole, _ticks: string, code: string) => `${CODE}${slot(shown.push(`\`${code}\``) - 1)}`)
      .replace(WIKI_LINK, (_whole, key: string, label: string | undefined) => {
        const at = shown.push((label ?? key).trim()) - 1;
        linkKeys.set(at, targetToKey(key.split('#')[0] ?? ''));
        return `${LINK}${slot(at)}`;
      })
      .replace(MARKDOWN_LINK, (_whole, label: string) => `${LINK}${slot(shown.push(label.trim()) - 1)}`);
    blockAt[index] = block;
    return text;
  });
  const segments = sentencesByParagraph(prepared.join('\n'));
  const own = segments.map((segment) => [...segment.text.matchAll(new RegExp(`${CITE}([\\s\\S])`, 'g'))].map((m) => (m[1] ?? '').charCodeAt(0) - SLOT_BASE));
  const linksOfParagraph = new Map<number, string[]>();
  for (const segment of segments) {
    const keys = [...segment.text.matchAll(new RegExp(`${LINK}([\\s\\S])`, 'g'))].flatMap((m) => {
      const key = linkKeys.get((m[1] ?? '').charCodeAt(0) - SLOT_BASE);
      return key ? [key] : [];
    });
    linksOfParagraph.set(segment.paragraph, [...new Set([...(linksOfParagraph.get(segment.paragraph) ?? []), ...keys])]);
  }
  const claims: Claim[] = [];
  segments.forEach((segment, index) => {
    const text = display(segment.text, shown);
    if (POINTER.test(text) || ABOUT_THE_WIKI.test(text) || KEPT_IN_THE_WIKI.test(segment.text) || (SOURCE_SUBJECT.test(text) && SAYS_NOTHING_OF.test(text))) return;
    let cites = own[index] ?? [];
    for (let next = index + 1; cites.length === 0 && next < segments.length && segments[next]?.paragraph === segment.paragraph; next++) cites = own[next] ?? [];
    const leadsIn = cites.length > 0 && (own[index] ?? []).length === 0;
    const block = blockAt[segment.lineStart - 1];
    if (cites.length === 0 && block) cites = [...block, ...listCitation(segments, own, lines, index).filter((at) => !block.some((outer) => covers(citations[outer], citations[at])))];
    claims.push({
      text,
      checked: segment.text.replace(new RegExp(`[${CITE}${LINK}${CODE}][\\s\\S]`, 'g'), ' ').replace(PARENTHETICAL_POINTER, ' ').replace(/\s+/g, ' ').trim(),
      line: segment.lineStart,
      citations: cites.map((at) => citations[at]).filter((c): c is ClaimCitation => c !== undefined),
      leadsIn,
      links: linksOfParagraph.get(segment.paragraph) ?? [],
      code: [...segment.text.matchAll(new RegExp(`${CODE}([\\s\\S])`, 'g'))].map((m) => (shown[(m[1] ?? '').charCodeAt(0) - SLOT_BASE] ?? '').replace(/^`+|`+$/g, '')),
    });
  });
  return claims;
}

/**
 * A citation ending the list an uncited item is in. Under a lead-in that cites ("With a
 * suffix: <!-- from: raw/x.md#L46-48 -->") a list cited once more on its last item ("…
 * <!-- from: raw/x.md#L49-69 -->") cites both for every item: a played page's items were held
 * to the lead-in's three lines only.
 */
function listCitation(segments: ReadonlyArray<{ lineStart: number }>, own: readonly number[][], lines: readonly string[], index: number): number[] {
  const start = segments[index]?.lineStart ?? 0;
  if (!LIST_ITEM.test(lines[start - 1] ?? '')) return [];
  let previous = start;
  for (let next = index + 1; next < segments.length; next++) {
    const at = segments[next]?.lineStart ?? 0;
    // The list goes on while no blank line, heading or other paragraph comes between.
    for (let line = previous; line < at; line++) if (!LIST_LINE.test(lines[line] ?? '')) return [];
    const cites = own[next] ?? [];
    if (cites.length > 0) return cites;
    previous = at;
  }
  return [];
}

/** Whether citation `outer` takes in all of `inner`'s lines. */
function covers(outer: ClaimCitation | undefined, inner: ClaimCitation | undefined): boolean {
  if (!outer || !inner || outer.file !== inner.file) return false;
  if (outer.first === undefined) return true;
  return inner.first !== undefined && inner.first >= outer.first && (inner.last ?? inner.first) <= (outer.last ?? outer.first);
}

/** A list item's first line, and any line of a list (an item or its indented continuation). */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;
const LIST_LINE = /^(?:\s*(?:[-*+]|\d+[.)])\s|\s+\S)/;

/** The sentence as written: links by their labels, code as code, citations left out. */
function display(text: string, shown: readonly string[]): string {
  return text
    // A citation leaves the space put before it (`word <!-- from --> .` → `word .`): it goes with
    // the citation, and the writer's own spacing stays as written (`if !let`, `let x: ! = …`).
    .replace(new RegExp(`\\s*${CITE}[\\s\\S]`, 'g'), '')
    .replace(new RegExp(`[${LINK}${CODE}]([\\s\\S])`, 'g'), (_whole, at: string) => shown[at.charCodeAt(0) - SLOT_BASE] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}
