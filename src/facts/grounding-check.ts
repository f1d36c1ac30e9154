import type { ClaimTerms } from './claim-terms.js';
import type { GroundingLanguage } from './grounding-language.js';
import type { Claim } from './claims.js';
import { spellsOutAcronym } from './acronyms.js';
import type { Analysed, CandidateFact, Evidence } from './grounding-evidence.js';
import { negationProblem, type Ranked } from './grounding-negation.js';
import { abbreviates, abbreviationsIn, addedDescription, quoteList, unmentionedTerms, wordsAsWritten, type Mentions } from './grounding-names.js';
import { isStopWord } from './word-tokens.js';
import { holds, overlapOf, wordsOf } from './stem-match.js';
import { holdsDerivedForm, holdsMisspelled } from './misspelling.js';
import { withoutMath } from './math-text.js';
import { wordStem } from './word-stem.js';

/**
 * The verdict on one claim against its evidence: what does not match, and whether the check
 * is sure of it. Sure (a warning): a number or date the evidence does not state; a name the
 * sources never mention (capitalised, an identifier, or a rare word that is not ordinary
 * English); evidence sharing no word with the claim; a denial of what a cited line says
 * near word for word. Anything else it notices — a denial worded another way, partial
 * support, a name its sources use elsewhere — is a question for a reader or a model.
 */

export type GroundingProblem =
  /** `anchor`: the evidence piece the verdict rests on (the finding quotes from it). */
  | { kind: 'ungrounded'; reason: string; sure: boolean; anchor?: CandidateFact }
  | { kind: 'unsupported-number'; numbers: string[]; sure: boolean }
  | { kind: 'miscited'; reason: string; sure: boolean };

/** Share of a claim's content words its evidence must hold. */
export const SUPPORT_THRESHOLD = 0.5;
/** The same for a claim checked against its cited lines: the citation already says where it comes from. */
export const CITED_SUPPORT_THRESHOLD = 0.3;
/** Lines of a source's head that hold its own date ("July 2020", "Start Date: 2023-07-26"). */
export const HEADER_LINES = 12;
const YEAR_FIRST = 1900;
const YEAR_LAST = 2100;

export interface CheckInput {
  claim: Pick<Claim, 'checked' | 'code'>;
  terms: ClaimTerms;
  /** The evidence its numbers and words may come from. */
  pool: readonly Analysed[];
  /** The pieces of evidence closest to it, best first. */
  ranked: readonly Ranked[];
  /** Share of its content words `pool` holds. */
  support: number;
  /** All of its sources' facts. */
  evidence: Evidence;
  /** Whether it is checked against the lines it cites (else against its sources' closest facts). */
  cited: boolean;
  definesAcronym: (acronym: string) => boolean;
  /** The head lines of its sources, read only when a number is not in its evidence. */
  header: () => readonly Analysed[];
  /** How many of its words are the page title's (held wherever it uses them). */
  topicWords: number;
  /** Stems of the page title's words. */
  topic: ReadonlySet<string>;
  /** Whether its sources write a token anywhere. */
  mentions: Mentions;
  /** Check only the names it uses (a sentence of too few words to check otherwise). */
  namesOnly?: boolean;
  /**
   * The page's language when it is not English (grounding-language.ts). Then a verdict
   * resting on words alone (a name its sources never mention, no word in common) is never
   * sure, and no word is taken for a rare one for not being English: German capitalises
   * every noun, and a page may cite a source in another language, where a word is a
   * translation. Numbers, dates and negations stay sure: they are read in the language.
   */
  language?: GroundingLanguage;
}

/**
 * The first problem of a claim, or undefined: numbers and dates first (a changed figure is
 * the surest sign), then names, then too little support, then a negation its evidence lacks.
 */
export function check(input: CheckInput): GroundingProblem | undefined {
  const { terms, pool, cited, evidence } = input;
  const missing = input.namesOnly ? [] : missingNumbers(input);
  if (missing.length > 0) {
    // Against facts the closest few may simply not be the ones stating it: sure only when no source states it.
    const sure = cited || missing.some((value) => !statedAnywhere(evidence, value));
    return { kind: 'unsupported-number', numbers: missing, sure };
  }
  const poolWords = wordsOf(pool);
  const wordsAreSure = input.language === undefined;
  // A capitalised name the evidence does not mention. Against cited lines a name may come from elsewhere in its
  // sources (a person named once at the top); an uncited claim's names must be in its closest fact, as its other words.
  const closestWords = cited ? poolWords : wordsOf(input.ranked.slice(0, 1).map((r) => r.item));
  // An acronym its sources state or spell out is a term they define ("MVS"), not a name a fact must repeat.
  // Names in the prose only: math the page writes its own way (`$W_t = \lambda^tW_0$`) names no one.
  const prose = withoutMath(input.claim.checked);
  const proseStems = new Set([...prose.matchAll(/[\p{L}\p{N}]+/gu)].map((match) => wordStem(match[0].toLowerCase())));
  const unnamed = terms.names.filter((name) => proseStems.has(name) && !holds(closestWords, name) && !(cited && holds(evidence.words, name)) && !(terms.acronyms.includes(name) && input.definesAcronym(name)));
  // Sure only of a name written nowhere in its sources — a heading ("## FAQ") is no fact but is written — and
  // not one letter off a word they write (a page correcting "ReplicasSets").
  const writtenIn = (name: string): boolean => holds(evidence.words, name) || input.mentions(name) || wordsAsWritten(prose, [name]).some((word) => input.mentions(word.toLowerCase()));
  const misspelled = (stem: string): boolean => holdsMisspelled(poolWords, stem) || holdsMisspelled(evidence.words, stem);
  // Nor of a name its sources write in a derived form ("Bermuda" where they say "Bermudian"): a question.
  const derived = (stem: string): boolean => holdsDerivedForm(poolWords, stem) || holdsDerivedForm(evidence.words, stem);
  // Nor of a name its cited lines abbreviate ("Minnesota" where they write "MN"): a question.
  const abbreviations = abbreviationsIn(pool.map((item) => item.fact.text));
  const neverMentioned = unnamed.filter((name) => !writtenIn(name) && !misspelled(name) && !derived(name) && !abbreviations.some((short) => abbreviates(short, name)));
  const read = input.language ? { checked: input.language.normalise(input.claim.checked), code: input.claim.code } : input.claim;
  const unmentioned = [...wordsAsWritten(prose, neverMentioned), ...unmentionedTerms(read, input.mentions, evidence.words, input.topic, misspelled, wordsAreSure)];
  if (unmentioned.length > 0) return { kind: 'ungrounded', reason: `it names ${quoteList([...new Set(unmentioned)])}, which its sources never mention`, sure: wordsAreSure };
  if (input.namesOnly) return undefined;
  if (unnamed.length > 0) return { kind: 'ungrounded', reason: `its closest fact does not name ${quoteList(wordsAsWritten(input.claim.checked, unnamed))}`, sure: false };
  // The numbers and dates it states are held by now, and they are content too: "Examples: `0x1p-2` is 0.25,
  // `0x2.p10` is 2048.0" says what its cited "0x1p-2 // == 0.25" lines say, with one word of its own.
  // So are the words of the page's title, as a source says "it" for the page's subject — as many as the
  // claim's other words its evidence holds, no more: "Go install is written in Rust" on the go-install page
  // needs "written" or "Rust" from its evidence (played review M: a title-heavy paraphrase read as "nothing like it").
  const heldWords = input.support * terms.words.length;
  const alsoHeld = new Set(terms.numbers.filter((n) => !terms.namedNumbers.includes(n))).size + terms.dates.length + Math.min(input.topicWords, Math.round(heldWords));
  const share = alsoHeld === 0 ? input.support : (heldWords + alsoHeld) / (terms.words.length + alsoHeld);
  if (share < (cited ? CITED_SUPPORT_THRESHOLD : SUPPORT_THRESHOLD)) {
    // Sharing no word at all is a wrong citation or an invention; sharing a few is partial support, a question.
    // Words in its code spans count too (`<link rel="expect" blocking="render">` against lines that write it).
    const codeShared = input.claim.code.some((code) => (code.toLowerCase().match(/[\p{L}]{3,}/gu) ?? []).some((word) => holds(poolWords, wordStem(word))));
    if (share === 0 && input.topicWords === 0 && !codeShared) return { kind: 'ungrounded', reason: cited ? 'its cited lines share no word with it' : 'no fact of its sources shares a word with it', sure: wordsAreSure };
    return { kind: 'ungrounded', reason: cited ? `its cited lines hold few of its words${unheldQuote(input, poolWords)}` : `no fact of its sources says this${unheldQuote(input, poolWords)}`, sure: false };
  }
  const negation = negationProblem(terms, pool, input.ranked, cited ? 'cited' : 'facts', input.claim.checked);
  if (negation || !cited) return negation;
  const added = addedDescription(input.claim.checked, (stem) => holds(poolWords, stem), (word) => isStopWord(word) || terms.names.includes(word));
  return added ? { kind: 'ungrounded', reason: `it calls "${added.name}" "${added.description}", which its cited lines do not`, sure: false } : undefined;
}

/** `; not "finite", "element"`: the claim's words its evidence lacks, as written (a reader sees what to look for). */
function unheldQuote(input: CheckInput, poolWords: ReadonlySet<string>): string {
  const lacking = input.terms.words.filter((word) => !holds(poolWords, word));
  if (lacking.length === 0) return '';
  const shown = wordsAsWritten(input.claim.checked, lacking).slice(0, 4);
  return ` (not ${quoteList(shown)})`;
}

/** The numbers and dates the claim states that its evidence (or its sources' head) does not. */
function missingNumbers(input: CheckInput): string[] {
  const { terms, pool, evidence } = input;
  const numbers = new Set(pool.flatMap((item) => item.terms.numbers));
  for (const n of terms.namedNumbers) if (evidence.numbers.has(n)) numbers.add(n);
  // A document's own name ("SE-0296", "KEP-2599") is in its title or file, rarely in a fact: written anywhere, it is stated.
  const written = (id: string): boolean => input.mentions(id) || id.split(/[^\p{L}\p{N}]+/u).filter(Boolean).every((part) => input.mentions(part));
  for (const id of terms.identifiers) if (written(id)) for (const digits of id.match(/\d+(?:\.\d+)?/g) ?? []) numbers.add(Number(digits));
  const dates = pool.flatMap((item) => item.terms.dates);
  const stated = (n: number): boolean => numbers.has(n) || numbers.has(n / 100) || numbers.has(n * 100);
  if (terms.numbers.some((n) => !stated(n)) || terms.dates.some((date) => !datedIn(dates, date))) {
    // A year or date its source's head gives (the document's own date: "July 2020", "Start Date:
    // 2023-07-26") may set any claim in time. Read only now: most claims' numbers are in their evidence.
    const head = input.header();
    for (const n of head.flatMap((item) => [...item.terms.numbers, ...item.terms.dates.map((date) => Number(date.slice(0, 4)))])) {
      if (Number.isInteger(n) && n >= YEAR_FIRST && n <= YEAR_LAST) numbers.add(n);
    }
    dates.push(...head.flatMap((item) => item.terms.dates));
  }
  return [...new Set([...terms.numbers.filter((n) => !stated(n)).map(formatNumber), ...terms.dates.filter((date) => !datedIn(dates, date))])];
}

function datedIn(list: readonly string[], date: string): boolean {
  return list.some((d) => d.startsWith(date) || date.startsWith(d));
}

/** Whether any of the sources' facts states a number (as printed by formatNumber) or a date. */
function statedAnywhere(evidence: Evidence, value: string): boolean {
  if (/^\d{4}-\d{2}/.test(value)) return datedIn(evidence.all.flatMap((item) => item.terms.dates), value);
  const n = Number(value.replace(/,/g, ''));
  return evidence.numbers.has(n) || evidence.numbers.has(n / 100) || evidence.numbers.has(n * 100);
}

/** Whether its sources state an acronym ("MVS"), or its evidence spells it out ("minimal version selection"). */
export function definesAcronym(evidence: Evidence, near: readonly Analysed[], acronym: string): boolean {
  return evidence.words.has(acronym) || near.some((item) => spellsOutAcronym(item.fact.text, acronym));
}

/** Facts by how many of the claim's words they hold, most first (ties by id), those holding none left out. */
export function rank(terms: ClaimTerms, facts: readonly Analysed[]): Ranked[] {
  const scored: Ranked[] = [];
  for (const item of facts) {
    const overlap = overlapOf(terms.words, item.words);
    if (overlap > 0) scored.push({ item, overlap });
  }
  return scored.sort((a, b) => b.overlap - a.overlap || (a.item.fact.id < b.item.fact.id ? -1 : a.item.fact.id > b.item.fact.id ? 1 : 0));
}

/** The `limit` facts sharing most words with the claim (counted from the words' postings), most first, ties by id. */
export function rankByPostings(terms: ClaimTerms, postings: ReadonlyMap<string, Analysed[]>, limit: number): Ranked[] {
  const counts = new Map<Analysed, number>();
  for (const word of terms.words) for (const item of postings.get(word) ?? []) counts.set(item, (counts.get(item) ?? 0) + 1);
  // Only the best few are ever read: kept sorted as they come, not a sort of every fact reached.
  const top: Ranked[] = [];
  const before = (a: Ranked, b: Ranked): boolean => a.overlap > b.overlap || (a.overlap === b.overlap && a.item.fact.id < b.item.fact.id);
  for (const [item, overlap] of counts) {
    const entry = { item, overlap };
    if (top.length === limit && !before(entry, top[limit - 1] as Ranked)) continue;
    let slot = Math.min(top.length, limit - 1);
    while (slot > 0 && before(entry, top[slot - 1] as Ranked)) {
      top[slot] = top[slot - 1] as Ranked;
      slot--;
    }
    top[slot] = entry;
  }
  return top;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) >= 10000 ? value.toLocaleString('en') : String(value);
}
