import { analyze } from '../search/text/analyze.js';
import { stringField, type Page } from '../wiki/page.js';

/** Below this many characters a passage says too little to be worth its header. */
const MIN_PASSAGE = 80;

/**
 * The paragraphs of a page body that best answer a question, within `maxChars`: those
 * holding the most distinct query terms first (earlier on a tie), returned in the page's
 * own order. A page that matches no term (one reached through a link) gives its opening
 * paragraphs instead. The last paragraph taken is cut to fit on a sentence boundary.
 */
export function bestPassages(body: string, queryTerms: ReadonlySet<string>, maxChars: number): string[] {
  if (maxChars < MIN_PASSAGE) return [];
  const paragraphs = paragraphsOf(body);
  const scored = paragraphs.map((text, order) => ({ text, order, score: distinctMatches(text, queryTerms) }));
  const anyMatch = scored.some((paragraph) => paragraph.score > 0);
  const ranked = anyMatch ? [...scored].filter((p) => p.score > 0).sort((a, b) => b.score - a.score || a.order - b.order) : scored;
  const taken: Array<{ text: string; order: number }> = [];
  let left = maxChars;
  for (const paragraph of ranked) {
    if (left < MIN_PASSAGE) break;
    // Passages are joined by a blank line, which the budget counts too.
    const room = left - 2;
    const text = paragraph.text.length <= room ? paragraph.text : cutToFit(paragraph.text, room);
    if (text === '') continue;
    taken.push({ text, order: paragraph.order });
    left -= text.length + 2;
  }
  return taken.sort((a, b) => a.order - b.order).map((passage) => passage.text);
}

/**
 * The body's paragraphs (blank-line separated), empty blocks and comments other than
 * `<!-- from: … -->` citations left out. The citations stay where they are, so a saved
 * answer can cite source lines without reading the page again (a played query read two
 * pages again for them); a citation on a line of its own belongs to the paragraph before.
 * A heading comes with the paragraph under it: a heading that matches the question brings
 * the text that answers it, not a bare title.
 */
function paragraphsOf(body: string): string[] {
  const blocks = body
    .replace(/<!--(?!\s*from:)[\s\S]*?-->/g, '')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  const paragraphs: string[] = [];
  let heading = '';
  for (const block of blocks) {
    if (CITATIONS_ONLY.test(block) && paragraphs.length > 0 && heading === '') {
      paragraphs[paragraphs.length - 1] += `\n${block}`;
      continue;
    }
    if (/^#{1,6}\s/.test(block) && !block.includes('\n')) {
      heading = heading ? `${heading}\n${block}` : block;
      continue;
    }
    paragraphs.push(heading ? `${heading}\n${block}` : block);
    heading = '';
  }
  if (heading) paragraphs.push(heading);
  return paragraphs;
}

/** A sentence ends at . ! or ? (closing quotes or brackets after it allowed), then white space. */
const SENTENCE_END = /[.!?。！？]["'”’)\]]*(?=\s|$)/g;
/** A block of nothing but citation comments. */
const CITATIONS_ONLY = /^(?:<!--\s*from:[\s\S]*?-->\s*)+$/;
/** Citation comments right after a cut point: they belong to the sentence before. */
const CITATIONS_AFTER = /^(?:\s*<!--\s*from:[\s\S]*?-->)+/;

/** Most characters a passage's one sentence may run past its room rather than be cut mid-sentence. */
const SENTENCE_OVERRUN = 300;

/** Where each sentence of `text` ends, with the citation comments that follow it (a sentence keeps its citation, or is not cut there). */
function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  for (const match of text.matchAll(SENTENCE_END)) {
    const after = (match.index ?? 0) + match[0].length;
    ends.push(after + (CITATIONS_AFTER.exec(text.slice(after))?.[0].length ?? 0));
  }
  return ends;
}

/**
 * `text` cut to at most `room` characters on a sentence boundary, so an excerpt never stops
 * mid-thought; a first sentence up to SENTENCE_OVERRUN past the room is given whole; a longer
 * one is cut on a word and marked `…` (empty when that leaves too little to say anything).
 */
function cutToFit(text: string, room: number): string {
  let end = 0;
  for (const after of sentenceEnds(text)) {
    if (after > room) break;
    end = after;
  }
  if (end > 0) return text.slice(0, end).trimEnd();
  // A first sentence a little longer than the room is given whole: cut on a word, it stopped right
  // before the quote that answered the question (a played query read two pages again for it).
  const firstEnd = sentenceEnds(text)[0];
  if (firstEnd !== undefined && firstEnd <= room + SENTENCE_OVERRUN) return text.slice(0, firstEnd).trimEnd();
  const cut = text.slice(0, room - 1);
  const space = cut.search(/\s\S*$/);
  const words = (space > room / 2 ? cut.slice(0, space) : cut).trimEnd();
  return words.length >= MIN_PASSAGE ? `${words}…` : '';
}

function distinctMatches(text: string, terms: ReadonlySet<string>): number {
  if (terms.size === 0) return 0;
  const found = new Set<string>();
  // A citation's file name and line numbers are no match for the question.
  for (const term of analyze(text.replace(/<!--[\s\S]*?-->/g, ' '))) if (terms.has(term)) found.add(term);
  return found.size;
}

/** Whether a page reached through a link belongs in a question's evidence: its title, key, summary or body holds a term of the question. */
export function matchesQuestion(page: Page, body: string, terms: ReadonlySet<string>): boolean {
  if (terms.size === 0) return true;
  const head = `${stringField(page.frontmatter, 'title') ?? ''}\n${page.key.replace(/-/g, ' ')}\n${stringField(page.frontmatter, 'summary') ?? ''}`;
  return distinctMatches(`${head}\n${body}`, terms) > 0;
}

/** The search analyzer's terms of a question (stemmed, stopwords dropped). */
export function questionTerms(question: string): Set<string> {
  return new Set(analyze(question));
}
