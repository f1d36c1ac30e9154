import type { SearchResult } from '../search/types.js';
import { anyStrong } from '../search/strength.js';

/**
 * search_wiki's answer as the model reads it: per hit where the page is (`concepts/attention`
 * for wiki/concepts/attention.md; the last part is the key to link), how strongly it is about
 * the query (strong or weak, and its score as a share of the best), title, summary, a
 * passage of about 200 characters around the query's words, and a few links. When no hit is
 * strong, the answer opens by saying so, so the model can create a page rather than force
 * one that is about something else. Five hits fit in about 2 KB.
 */
const TITLE_CHARS = 80;
const SUMMARY_CHARS = 120;
const LINKS_SHOWN = 4;
/** The index's passages are about 200 characters; a longer one (another search port) is cut on a word. */
const SNIPPET_CHARS = 240;

export function formatSearchHits(query: string, hits: readonly SearchResult[], phrasesNotFound: readonly string[] = []): string {
  if (hits.length === 0) return `No page matches "${query}".`;
  const lines = hits.map(formatHit);
  if (!anyStrong(hits)) lines.unshift(`No page is strongly about "${query}"; the closest pages, all weak:`);
  if (phrasesNotFound.length > 0) lines.unshift(phraseNotFoundLine(phrasesNotFound));
  return lines.join('\n');
}

/** The line that says a quoted phrase matched nothing as written and its words were searched instead. */
export function phraseNotFoundLine(phrases: readonly string[]): string {
  const quoted = phrases.map((phrase) => `"${phrase}"`).join(', ');
  return `No page holds the exact phrase${phrases.length > 1 ? 's' : ''} ${quoted}; searched for its words instead:`;
}

function formatHit(hit: SearchResult): string {
  const summary = clip(hit.summary, SUMMARY_CHARS);
  const strength = hit.strength === undefined ? '' : ` (${hit.strength}${hit.relative === undefined ? '' : `, ${hit.relative.toFixed(2)}`})`;
  const head = `${shortPath(hit.path)}${strength} - ${clip(hit.title, TITLE_CHARS)}${summary ? `: ${summary}` : ''}`;
  const snippet = hit.snippet && hit.snippet !== hit.summary ? clip(hit.snippet, SNIPPET_CHARS) : '';
  const links = hit.links.slice(0, LINKS_SHOWN).join(', ') + (hit.links.length > LINKS_SHOWN ? ` +${hit.links.length - LINKS_SHOWN}` : '');
  const detail = [snippet ? `  "${snippet}"` : '', links ? `  -> ${links}` : ''].filter(Boolean);
  return [head, ...detail].join('\n');
}

function shortPath(pagePath: string): string {
  return pagePath.replace(/^wiki\//, '').replace(/\.md$/, '');
}

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cut on a word boundary. */
function clip(text: string, max: number): string {
  const whole = flat(text);
  if (whole.length <= max) return whole;
  const cut = whole.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
