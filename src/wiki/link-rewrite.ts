import { forEachWikilink, maskCode, targetToKey } from './links.js';
import type { Frontmatter } from './page.js';

/**
 * Point `[[old]]`, `[[old|label]]`, `[[old#heading]]` at new keys. Only the target text
 * inside the brackets changes — labels, headings and every character of prose around the
 * link stay as they are. Links in code are examples and are left alone.
 */
export function rewriteLinkTargets(body: string, mapping: ReadonlyMap<string, string>): string {
  if (mapping.size === 0) return body;
  const masked = maskCode(body);
  let out = '';
  let last = 0;
  forEachWikilink(masked, (index, _length, targetText) => {
    const replacement = mapping.get(targetToKey(targetText));
    if (replacement === undefined || targetText.trim() === '') return;
    const start = index + 2 + (targetText.length - targetText.trimStart().length);
    out += body.slice(last, start) + replacement;
    last = start + targetText.trim().length;
  });
  return out + body.slice(last);
}

/** The key a `refs` entry names, spelled the way refsOf reads it. */
function refKey(entry: string): string {
  return targetToKey(entry.trim().replace(/^\[\[|\]\]$/g, '').split('|')[0] ?? '');
}

/** `refs` with entries naming a mapped key replaced by the new key; other entries untouched. */
export function rewriteRefs(frontmatter: Frontmatter, mapping: ReadonlyMap<string, string>): Frontmatter {
  const refs = frontmatter.refs;
  const swap = (entry: unknown): unknown => (typeof entry === 'string' ? (mapping.get(refKey(entry)) ?? entry) : entry);
  if (Array.isArray(refs)) return { ...frontmatter, refs: refs.map(swap) };
  if (typeof refs === 'string') return { ...frontmatter, refs: swap(refs) };
  return frontmatter;
}

/**
 * Links to pages that are gone made plain text: `[[key|label]]` becomes its label and
 * `[[key]]` the page's title (`textOf`); every other character stays. Links in code are left.
 */
export function unlinkKeys(body: string, gone: ReadonlySet<string>, textOf: (key: string) => string): { body: string; unlinked: number } {
  if (gone.size === 0) return { body, unlinked: 0 };
  const masked = maskCode(body);
  let out = '';
  let last = 0;
  let unlinked = 0;
  forEachWikilink(masked, (index, length, targetText, _heading, label) => {
    const key = targetToKey(targetText);
    if (!gone.has(key)) return;
    out += body.slice(last, index) + (label?.trim() || textOf(key));
    last = index + length;
    unlinked++;
  });
  return { body: out + body.slice(last), unlinked };
}
