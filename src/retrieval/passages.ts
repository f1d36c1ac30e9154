import { analyze } from '../search/text/analyze.js';

/** Below this many characters a passage says too little to be worth its header. */
const MIN_PASSAGE = 80;

/**
 * The paragraphs of a page body that best answer a question, within `maxChars`: those
 * holding the most distinct query terms first (earlier on a tie), returned in the page's
 * own order. A page that matches no term (one reached through a link) gives its opening
 * paragraphs instead. The last paragraph taken is cut to fit, ending in `…`.
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
    const text = paragraph.text.length <= room ? paragraph.text : `${paragraph.text.slice(0, room - 1).trimEnd()}…`;
    taken.push({ text, order: paragraph.order });
    left -= text.length + 2;
  }
  return taken.sort((a, b) => a.order - b.order).map((passage) => passage.text);
}

/** The body's paragraphs (blank-line separated), provenance comments and empty blocks left out. */
function paragraphsOf(body: string): string[] {
  return body
    .replace(/<!--[\s\S]*?-->/g, '')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
}

function distinctMatches(text: string, terms: ReadonlySet<string>): number {
  if (terms.size === 0) return 0;
  const found = new Set<string>();
  for (const term of analyze(text)) if (terms.has(term)) found.add(term);
  return found.size;
}

/** The search analyzer's terms of a question (stemmed, stopwords dropped). */
export function questionTerms(question: string): Set<string> {
  return new Set(analyze(question));
}
