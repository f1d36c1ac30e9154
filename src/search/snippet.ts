import { analyze } from './analyze.js';

/**
 * A short passage of a page for a result: the sentence that holds the most of the query's
 * words (the first such sentence on a tie), cut to a window around the first match when
 * long. Without a match, the page's opening sentence.
 */
export const SNIPPET_LENGTH = 200;

export function makeSnippet(body: string, queryTerms: readonly string[], maxLength = SNIPPET_LENGTH): string {
  const sentences = sentencesOf(body);
  if (sentences.length === 0) return '';
  const wanted = new Set(queryTerms);
  let best = sentences[0] ?? '';
  let bestScore = 0;
  if (wanted.size > 0) {
    for (const sentence of sentences) {
      const found = new Set(analyze(sentence).filter((term) => wanted.has(term)));
      if (found.size > bestScore) {
        best = sentence;
        bestScore = found.size;
        if (found.size === wanted.size) break;
      }
    }
  }
  return bestScore > 0 ? windowAround(best, wanted, maxLength) : clip(best, maxLength);
}

function sentencesOf(body: string): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const rawLine of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(rawLine)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const line = rawLine
      .replace(/^\s{0,3}(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s?)/, '')
      .replace(/[*_`]+/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
    if (!line || /^[-|:\s]+$/.test(line)) continue;
    for (const sentence of line.split(/(?<=[.!?])\s+|(?<=[。！？])/)) if (sentence.trim()) out.push(sentence.trim());
  }
  return out;
}

function clip(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > maxLength / 2 ? cut.slice(0, space) : cut}…`;
}

/** Cut a long sentence to a window that starts a little before its first matching word. */
function windowAround(sentence: string, wanted: Set<string>, maxLength: number): string {
  if (sentence.length <= maxLength) return sentence;
  let first = 0;
  for (const match of sentence.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    if (analyze(match[0]).some((term) => wanted.has(term))) {
      first = match.index ?? 0;
      break;
    }
  }
  const start = Math.max(0, first - Math.floor(maxLength / 4));
  const from = start === 0 ? 0 : sentence.indexOf(' ', start) + 1 || start;
  const text = clip(sentence.slice(from), maxLength - (from > 0 ? 1 : 0));
  return from > 0 ? `…${text}` : text;
}
