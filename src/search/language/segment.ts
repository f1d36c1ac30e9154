/**
 * Words of scripts written without spaces between them (Chinese, Japanese, Thai, Lao, Khmer,
 * Myanmar) and of Korean, found with the runtime's own word segmenter (`Intl.Segmenter`,
 * ICU's dictionaries: no dependency). Segmentation is by script, not by the page's
 * language, so a query and a page cut the same characters the same way whatever either
 * is tagged.
 */

/** Characters of the scripts segmented here (Korean too: its words carry their particles). */
export const SEGMENTED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Runs of segmented scripts (with the marks and iteration signs they use) and runs of anything else. */
export const SEGMENTED_RUNS =
  /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ー々\p{M}]+)|([^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ー々]+)/gu;

const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

let segmenter: Intl.Segmenter | undefined;

/** The words of a run of a segmented script, in order. */
export function segmentWords(run: string): string[] {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  const words: string[] = [];
  for (const part of segmenter.segment(run)) if (part.isWordLike) words.push(part.segment);
  return words;
}

/**
 * The terms of a run of a segmented script: each word, and for a CJK word of three or more
 * characters also its overlapping character pairs. The pairs find a compound from its parts
 * (研究生院 from 研究生) where the dictionary cut them otherwise, while a page holding the
 * query's word itself still matches more of the query's terms than one holding only
 * a neighbour's characters: 研究生 (graduate student) is 研究生 + 研究 + 究生, and a page on
 * 研究|生命|起源 (research on the origin of life) holds only 研究.
 */
export function segmentedTerms(run: string, push: (term: string) => void): void {
  for (const word of segmentWords(run)) {
    push(word);
    if (!IDEOGRAPHIC.test(word)) continue;
    const chars = Array.from(word);
    if (chars.length < 3) continue;
    for (let i = 0; i + 1 < chars.length; i++) push(`${chars[i]}${chars[i + 1]}`);
  }
}

/** Split a token into runs of segmented scripts (their terms handed to `segmented`) and other runs (to `other`), in order. */
export function splitSegmented(token: string, segmented: (term: string) => void, other: (part: string) => void): void {
  if (!SEGMENTED_SCRIPT.test(token)) {
    other(token);
    return;
  }
  for (const match of token.matchAll(SEGMENTED_RUNS)) {
    if (match[1]) segmentedTerms(match[1], segmented);
    else if (match[2]) other(match[2]);
  }
}
