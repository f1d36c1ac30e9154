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
