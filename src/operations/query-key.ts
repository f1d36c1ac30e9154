import { ENGLISH_STOPWORDS } from '../search/text/stopwords.js';
import { slugify } from '../wiki/keys.js';

/** Words that ask rather than name: dropped with the stopwords so the key names the subject. */
const ASKING_WORDS: ReadonlySet<string> = new Set(['explain', 'describe', 'compare', 'tell', 'define', 'summarise', 'summarize', 'list', 'show', 'give', 'mean', 'means', 'work', 'works']);

/** At most this many words, and at most this many characters, whole words only. */
const MAX_WORDS = 4;
const MAX_CHARS = 40;

/**
 * A short page key for a saved answer, made from the question's subject: its first few
 * content words, whole words only ("Is reciprocal rank fusion better than either alone?"
 * → `reciprocal-rank-fusion-better`). Empty when the question has no content word.
 */
export function subjectKey(question: string): string {
  const words = slugify(question).split('-').filter((word) => word !== '' && !ENGLISH_STOPWORDS.has(word) && !ASKING_WORDS.has(word));
  const kept: string[] = [];
  for (const word of words) {
    if (kept.length === MAX_WORDS) break;
    const next = [...kept, word].join('-');
    if (next.length > MAX_CHARS) break;
    kept.push(word);
  }
  return kept.join('-') || slugify(question).split('-').slice(0, MAX_WORDS).join('-');
}
