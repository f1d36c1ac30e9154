import { ENGLISH_STOPWORDS } from '../../search/text/stopwords.js';
import { slugify } from '../../wiki/slug.js';

/** Words that ask rather than name: dropped with the stopwords so the key names the subject. */
const ASKING_WORDS: ReadonlySet<string> = new Set(['explain', 'describe', 'compare', 'tell', 'define', 'summarise', 'summarize', 'list', 'show', 'give', 'mean', 'means', 'work', 'works']);

/** At most this many words, and at most this many characters, whole words only. */
const MAX_WORDS = 4;
const MAX_CHARS = 40;

/**
 * The keys a saved answer may take, best first: a short key from the question's subject —
 * its first few content words, whole words only ("Is reciprocal rank fusion better than
 * either alone?" → `reciprocal-rank-fusion-better`) — then the question's own first words
 * (so "What is beta?" is `what-is-beta` when a page `beta` exists).
 */
export function answerKeys(question: string): string[] {
  const words = slugify(question).split('-').filter((word) => word !== '');
  const subject = firstWords(words.filter((word) => !ENGLISH_STOPWORDS.has(word) && !ASKING_WORDS.has(word)), MAX_WORDS);
  const phrase = firstWords(words, MAX_WORDS + 2);
  return [...new Set([subject, phrase].filter((key) => key !== ''))];
}

/** Up to `max` words joined by `-`, whole words only and within MAX_CHARS. */
function firstWords(words: readonly string[], max: number): string {
  const kept: string[] = [];
  for (const word of words) {
    if (kept.length === max || [...kept, word].join('-').length > MAX_CHARS) break;
    kept.push(word);
  }
  return kept.join('-');
}
