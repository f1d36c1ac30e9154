import { analyze } from '../search/text/analyze.js';

/**
 * The subjects a question names as a list: the class it ranges over ("which of these
 * packages support Bayesian inference?" — every package, also those that lack it), or the
 * items it compares ("compare BM25 and LSA", "BM25 vs LSA"). A played question over three
 * papers got evidence only from the pages similar to "Bayesian": none for the two packages
 * that lack it, so the model spent a turn finding them.
 */

/** Words between the asking word and the class noun ("which of these packages"). */
const FILLER = new Set(['of', 'the', 'these', 'those', 'one', 'ones', 'our', 'its', 'their', 'in', 'two', 'three', 'four', 'five', 'several', 'different']);
/** Determiners that make any noun after them a class the question ranges over. */
const RANGING = new Set(['these', 'those', 'each', 'every', 'all', 'both']);
const ASKING = new Set(['which', 'each', 'every', 'all', 'both']);
const COMPARING = /\b(?:compare|comparison|comparing|versus|vs\.?|differ|differs|difference|differences|between)\b/i;
const ITEM_SEPARATOR = /\s*(?:,|;|\band\b|\bor\b|\bvs\.?|\bversus\b|\bwith\b|\bagainst\b|\bto\b|\bcompare[ds]?\b|\bcomparing\b|\bbetween\b|\bdifference\b|\bdiffer\b)\s*/i;

/** At most this many items of a comparison are searched on their own. */
export const MAX_ITEMS = 4;

export interface SubjectList {
  /** The stemmed class noun ("packag"), when the question ranges over a class. */
  classTerm?: string;
  /** The class noun as the question writes it ("packages"), to search for. */
  classWord?: string;
  /** The compared items' search terms, each a query of its own. */
  items: string[];
}

export function subjectList(question: string, relating: ReadonlySet<string>): SubjectList {
  const list: SubjectList = { items: [] };
  const words = question.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  for (let i = 0; i < words.length; i++) {
    if (!ASKING.has(words[i] ?? '')) continue;
    let j = i + 1;
    let ranging = RANGING.has(words[i] ?? '');
    while (j < words.length && FILLER.has(words[j] ?? '')) ranging ||= RANGING.has(words[j++] ?? '');
    const noun = words[j] ?? '';
    const [term] = analyze(noun);
    if (term === undefined || relating.has(term) || !(ranging || /[^s]s$/.test(noun))) continue;
    list.classTerm = term;
    list.classWord = noun;
    break;
  }
  if (COMPARING.test(question)) {
    const items = question
      .split(ITEM_SEPARATOR)
      .map((phrase) => analyze(phrase).filter((term) => !relating.has(term) && term !== list.classTerm))
      .filter((terms) => terms.length > 0)
      .map((terms) => terms.join(' '));
    if (items.length >= 2) list.items = [...new Set(items)].slice(0, MAX_ITEMS);
  }
  return list;
}
