import type { SearchResult } from '../search/types.js';

/**
 * search_wiki's answer as the model reads it: per hit where the page is (`concepts/attention`
 * for wiki/concepts/attention.md; the last part is the key to link), title, summary, one
 * short snippet and a few links; no scores or lanes, which the model cannot use. Ten hits
 * fit in about 2 KB.
 */
const TITLE_CHARS = 40;
const SUMMARY_CHARS = 50;
const SNIPPET_CHARS = 36;
const LINKS_SHOWN = 3;

export function formatSearchHits(query: string, hits: readonly SearchResult[]): string {
  if (hits.length === 0) return `No page matches "${query}".`;
  return hits.map(formatHit).join('\n');
}

function formatHit(hit: SearchResult): string {
  const summary = clip(hit.summary, SUMMARY_CHARS);
  const head = `${shortPath(hit.path)} - ${clip(hit.title, TITLE_CHARS)}${summary ? `: ${summary}` : ''}`;
  const snippet = clip(hit.snippet, SNIPPET_CHARS);
  const links = hit.links.slice(0, LINKS_SHOWN).join(', ') + (hit.links.length > LINKS_SHOWN ? ` +${hit.links.length - LINKS_SHOWN}` : '');
  const detail = [snippet ? `"${snippet}"` : '', links ? `-> ${links}` : ''].filter(Boolean).join(' ');
  return detail ? `${head}\n  ${detail}` : head;
}

function shortPath(pagePath: string): string {
  return pagePath.replace(/^wiki\//, '').replace(/\.md$/, '');
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
