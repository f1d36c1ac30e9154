import { extractDates, MONTHS } from './claim-dates.js';
import { plainMath } from './math-text.js';
import { capitalisedExpansions, spellsOut } from './acronyms.js';
import { NEGATIONS, NEGATION_SCOPE, EVIDENCE_NEGATION_SCOPE, EVIDENCE_DENIALS, EVIDENCE_DENIAL_COMPOUNDS, EVIDENCE_FORWARD_DENIALS, CLAUSE_END, SENTENCE_END, CONTRASTS, MORE_STOP_WORDS, NOT_NEGATIVE_UN, CONDITIONS, QUANTIFIERS, NUMBER_WORDS, SCALES, NOT_A_DENIAL, AUXILIARIES } from './claim-vocabulary.js';
import { wordStem as stem } from './word-stem.js';
import { isStopWord } from './word-tokens.js';

/**
 * What the grounding check compares between a page's claim and its evidence: content-word
 * stems (so inflection, voice and word order do not matter), numbers as values (1,000 =
 * 1000), dates as dates whatever their format, capitalised names and negation. Numbers that
 * are part of a name ("RFC 9110", "Go 1.13"), version strings, hashes and other identifiers
 * are not values and are left out.
 */
export interface ClaimTerms {
  /** Distinct content-word stems. */
  words: string[];
  /** Numeric values stated (dates' parts excluded), those that are part of a name ("RFC 9110", "Go 1.13") included. */
  numbers: number[];
  /** The numbers that are part of a name: any place in the sources that states them supports them. */
  namedNumbers: number[];
  /** The identifiers those numbers are part of, lower case ("se-0296", "kep-2599"): written anywhere in the sources, they are stated. */
  identifiers: string[];
  /** Dates stated, `YYYY-MM-DD` or `YYYY-MM` when the day is not given. */
  dates: string[];
  /** Stems of capitalised words past the sentence's first word (names, titles, acronyms). */
  names: string[];
  /** Of those, the acronyms ("MVS", "TOFU"): a term its sources define, not a person or thing a fact must name. */
  acronyms: string[];
  negated: boolean;
  /** Stems of the content words a negation governs (the three words after "not", "never", "doesn't" …). */
  negatedWords: string[];
  /** Of those, the ones after the negation (in evidence, `negatedWords` also holds the subject before it: "cards are not filed"). */
  followingNegation: string[];
  /** Words that turn a clause around without negating the claim ("rather than", "only", "instead"). */
  contrasted: boolean;
}

const CHUNK_EDGE = /^[("'“‘[{<*_~]+|[)"'”’\]}>.,;:!?*_~]+$/gu;
const PLAIN_NUMBER = /^[~≈<>±+-]?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(%|\s*percent)?$/;
/** "2-dimensional", "30-year": a number joined to the word it measures. */
const MEASURE_WORD = /^(\d+)(\.\d+)?(?=-\p{L}{3,}$)/u;
/** A commit or content hash: seven or more hex digits with both letters and digits. */
const HASH = /^(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}$/i;
/** A lower-case ASCII word, with a comma, semicolon or full stop after it at most. */
const PLAIN_WORD = /^([a-z]+)([.,;]?)$/;
const ENUMERATOR = /^\(?\d{1,2}\)[,.;:]?$/;
const VERSION = /^v?\d+(?:\.\d+){2,}$/;
const CAPITALISED = /^\p{Lu}/u;
const ACRONYM = /^\p{Lu}{2,}s?$/u;
const WORD = /[\p{L}\p{N}]+/gu;
/** Words joined by a hyphen or slash: one word ("no-op", "yes/no"), whatever its parts say. */
const COMPOUND = /\p{L}[-/]\p{L}/u;

/** Whether the text labels the items of a list "(1) … (2) …": its enumerators count up from 1 and there are two at least. */
function listLabels(chunks: readonly string[]): boolean {
  const labels = chunks.filter((chunk) => ENUMERATOR.test(chunk)).map((chunk) => Number(/\d+/.exec(chunk)?.[0]));
  return labels.length >= 2 && labels.every((value, i) => value === i + 1);
}

/** Analyse one text (a claim or a line of evidence). `evidence` reads spelled-out numbers as values too. */
export function claimTerms(text: string, evidence = false): ClaimTerms {
  const { dates, rest } = extractDates(plainMath(text));
  const expansions = evidence ? undefined : capitalisedExpansions(rest);
  const chunks = rest.split(/\s+|(?<=\d)[–—-](?=\d)/u).filter(Boolean);
  const labelsList = !evidence && listLabels(chunks);
  const numbers: number[] = [];
  const namedNumbers: number[] = [];
  const identifiers: string[] = [];
  const names: string[] = [];
  const acronyms: string[] = [];
  const words = new Set<string>();
  let negated = false;
  let contrasted = false;
  let first = true;
  const negatedWords = new Set<string>();
  const followingNegation = new Set<string>();
  /** Words said so far outside any negation: "evaluate to streams, rather than evaluating to futures" does not deny "evaluate". */
  const asserted = new Set<string>();
  /** Whether the scope running is a "rather than"'s, which denies only what it has not said already. */
  let contrastScope = false;
  /** Whether the chunk read follows a comma. */
  let afterComma = false;
  /** The word that makes a forward denial of the one before ("than" after "rather"). */
  let awaitedSecond: string | undefined;
  /** How many more chunks the last negation governs. */
  let scope = 0;
  /** The last few content stems: what a negation in evidence may be about. */
  const recent: string[] = [];
  /** The content stems of the sentence so far: what an elliptical "C itself has not," denies. */
  const sentence: string[] = [];
  /** Open parentheses, and how many were open at the last negation: a ")" closing its parenthesis ends its scope ("(not `0o`) and every other flag"). */
  let depth = 0;
  let negationDepth = 0;
  /** Every word so far, lower-cased: an acronym spelled by the words before it ("trust on first use (TOFU)") names nothing new. */
  const spoken: string[] = [];
  /** In evidence, the words of a sentence opening with a condition ("When go.sum is up to date, … is never contacted"): the main clause's negation governs them too. */
  let condition: string[] | undefined;
  /** Whether the opening condition's sentence still runs: a semicolon ends it ("Once a future has returned Ready, poll calls may panic; the trait guarantees nothing" does not deny "panic"). */
  let conditionOpen = false;
  const denyCondition = (): void => {
    if (evidence && conditionOpen) for (const word of condition ?? []) negatedWords.add(word);
  };
  /** A content word's stem: a word of the text, of an opening condition, of the negation governing it, and one of the last two. */
  const noteStem = (stemmed: string, inScope: boolean): void => {
    words.add(stemmed);
    if (conditionOpen) condition?.push(stemmed);
    if (!inScope) asserted.add(stemmed);
    else if (!contrastScope || !asserted.has(stemmed)) {
      negatedWords.add(stemmed);
      followingNegation.add(stemmed);
    }
    recent.push(stemmed);
    sentence.push(stemmed);
    if (recent.length > 2) recent.shift();
  };
  /** A denial word in evidence ("avoids", "a non-goal"): it denies the words just before it and the rest of its clause. */
  const denyAround = (): void => {
    contrastScope = false;
    scope = EVIDENCE_NEGATION_SCOPE;
    for (const word of recent) negatedWords.add(word);
  };
  /**
   * What one lower-cased word says of the sentence: a condition opening it, a negation or
   * denial, a contrast, a spelled-out number. In a compound ("no-op", "not-yet-final") it
   * negates nothing: a played page's "a no-op `Waker`" was read as a denial.
   */
  const noteWord = (lower: string, inCompound = false): void => {
    if (first) {
      condition = CONDITIONS.has(lower) ? [] : undefined;
      conditionOpen = condition !== undefined;
    }
    if (NEGATIONS.has(lower) && !inCompound) {
      negated = true;
      negationDepth = depth;
      // "10 identical pointers to the value 10, not pointers to 0 through 9": a "not" after a comma sets an
      // alternative against what the claim asserts, and denies only what it has not asserted already.
      contrastScope = !evidence && afterComma && lower === 'not';
      scope = evidence ? EVIDENCE_NEGATION_SCOPE : NEGATION_SCOPE;
      // "none of the cards are filed" / "cards are not filed": in evidence the subject before counts too.
      if (evidence) for (const word of recent) negatedWords.add(word);
      denyCondition();
    } else if (evidence && EVIDENCE_DENIALS.has(lower)) {
      denyAround();
    } else if (evidence && lower === awaitedSecond) {
      contrastScope = true;
      scope = NEGATION_SCOPE - 1;
    }
    awaitedSecond = evidence ? EVIDENCE_FORWARD_DENIALS[lower] : undefined;
    if (CONTRASTS.has(lower) || (lower.startsWith('un') && lower.length > 5 && !NOT_NEGATIVE_UN.has(stem(lower)))) contrasted = true;
    if (evidence && NUMBER_WORDS[lower] !== undefined) numbers.push(NUMBER_WORDS[lower]);
  };
  const analyseChunk = (rawChunk: string, index: number, inScope: boolean): void => {
    // Most chunks are a plain lower-case word, maybe with a comma or full stop: no regex work for those.
    const plain = PLAIN_WORD.exec(rawChunk);
    if (plain) {
      const lower = plain[1] ?? '';
      // "not only X but (also) Y" asserts X; "no longer needed" denies "needed", not "longer".
      const next = (chunks[index + 1] ?? '').toLowerCase();
      const notOnly = NEGATIONS.has(lower) && NOT_A_DENIAL.test(next) && chunks.slice(index + 2).some((chunk) => /^(?:but|also)\b/i.test(chunk));
      noteWord(lower, notOnly);
      if (lower.length > 1 && !isStopWord(lower) && !MORE_STOP_WORDS.has(lower) && !NEGATIONS.has(lower) && !(lower === 'longer' && spoken.at(-1) === 'no')) {
        noteStem(stem(lower), inScope);
      }
      spoken.push(lower);
      first = (plain[2] ?? '') === '.';
      // "Although C++14 added binary integer literals, C itself has not, as of C18": a negation ending its
      // clause right after an auxiliary denies what the sentence said before it.
      if (evidence && plain[2] && lower === 'not' && AUXILIARIES.has(spoken.at(-2) ?? '')) for (const word of sentence) negatedWords.add(word);
      // A negation's subject is in its own sentence ("… variable `GOWORK`. When not in workspace mode" denies no variable).
      if (first) {
        recent.length = 0;
        sentence.length = 0;
      }
      if (plain[2] === '.' || plain[2] === ';' || plain[2] === ',') scope = 0;
      return;
    }
    const chunk = rawChunk.replace(/['’]s$/u, '').replace(CHUNK_EDGE, '');
    if (chunk === '') {
      if (/[.;:!?,]/.test(rawChunk)) scope = 0;
      return;
    }
    if (/n['’]t$/iu.test(chunk)) {
      negated = true;
      negationDepth = depth;
      contrastScope = false;
      // "…, C hasn't." denies what the sentence said before it, as "has not," does.
      if (evidence && /[,.;]$/.test(rawChunk)) for (const word of sentence) negatedWords.add(word);
      scope = evidence ? EVIDENCE_NEGATION_SCOPE : NEGATION_SCOPE;
      if (evidence) for (const word of recent) negatedWords.add(word);
      denyCondition();
    }
    const number = PLAIN_NUMBER.exec(chunk) ?? (evidence ? null : MEASURE_WORD.exec(chunk));
    if (!evidence && !number && /\d/.test(chunk) && /\p{L}/u.test(chunk) && !VERSION.test(chunk) && !HASH.test(chunk) && !/[/\\@:]/.test(chunk)) {
      // An identifier's digits ("S100A9", "SHA256", "Ang-1"): stated anywhere in the sources is enough.
      for (const digits of chunk.match(/\d+(?:\.\d+)?/g) ?? []) {
        numbers.push(Number(digits));
        namedNumbers.push(Number(digits));
      }
      identifiers.push(chunk.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').toLowerCase());
    } else if (!evidence && !number && /^[^/\\]*[=()[\]][^/\\]*$/.test(chunk)) {
      // "k=7.5", "17(1957)", "xlim=(-0.5,0.5)": the numbers between the marks.
      for (const part of chunk.split(/[=()[\],]+/)) {
        const inner = PLAIN_NUMBER.exec(part.replace(CHUNK_EDGE, ''));
        if (inner && !VERSION.test(part)) numbers.push(Number(`${(inner[1] ?? '').replace(/,/g, '')}${inner[2] ?? ''}`));
      }
    }
    if (number && !VERSION.test(chunk)) {
      if (!evidence) {
        const value = Number(`${(number[1] ?? '').replace(/,/g, '')}${number[2] ?? ''}`);
        // "(1) … (2) … (3)" labels the items of one sentence's list: no item's label is a claim.
        if (!(ENUMERATOR.test(rawChunk) && labelsList)) {
          // "RFC 9110" names and a lone "(1)" enumerates: stated anywhere in the sources is enough for those.
          if (isPartOfName(chunks, index) || ENUMERATOR.test(rawChunk)) namedNumbers.push(value);
          numbers.push(value);
        }
      } else {
        // "3 million" in evidence also states 3,000,000.
        const scale = SCALES[(chunks[index + 1] ?? '').toLowerCase().replace(CHUNK_EDGE, '')];
        if (scale) numbers.push(Number(`${(number[1] ?? '').replace(/,/g, '')}${number[2] ?? ''}`) * scale);
      }
      // "(RFC 2535, 2018). Nesting …": a number ending a sentence, the next word opens one (no name).
      first = SENTENCE_END.test(rawChunk);
      if (first) {
        recent.length = 0;
        sentence.length = 0;
      }
      if (CLAUSE_END.test(rawChunk) || rawChunk.endsWith(',')) scope = 0;
      return;
    }
    const compound = COMPOUND.test(chunk);
    if (evidence && EVIDENCE_DENIAL_COMPOUNDS.has(chunk.toLowerCase())) denyAround();
    for (const piece of chunk.match(WORD) ?? []) {
      const lower = piece.toLowerCase();
      const acronym = spellsOut(piece, spoken);
      spoken.push(lower);
      noteWord(lower, compound);
      // A capitalised expansion of an acronym beside it ("PEP (Python Enhancement Proposal)") only says what the letters stand for.
      if (/^\d/.test(piece) || piece.length === 1 || isStopWord(lower) || MORE_STOP_WORDS.has(lower) || NEGATIONS.has(lower) || (expansions?.words.has(lower) && CAPITALISED.test(piece))) {
        first = false;
        continue;
      }
      const stemmed = stem(lower);
      noteStem(stemmed, inScope);
      if (!first && piece.length > 1 && CAPITALISED.test(piece) && !MONTHS.includes(lower) && (!acronym || expansions?.acronyms.has(piece))) {
        names.push(stemmed);
        if (ACRONYM.test(piece)) acronyms.push(stemmed);
      }
      first = false;
    }
    // A full stop starts a new sentence whose first word is capitalised anyway (after a colon a
    // capital is read as a name: checked only against all of the sources' words, a plain word passes).
    if (SENTENCE_END.test(rawChunk)) {
      first = true;
      recent.length = 0;
      sentence.length = 0;
    }
    if (CLAUSE_END.test(rawChunk) || rawChunk.endsWith(',')) scope = 0;
  };
  chunks.forEach((rawChunk, index) => {
    afterComma = (chunks[index - 1] ?? '').endsWith(',');
    const inScope = scope > 0;
    if (scope > 0) scope--;
    depth += countOf(rawChunk, '(');
    analyseChunk(rawChunk, index, inScope);
    if (/;["')\]’”*_]*$/.test(rawChunk)) conditionOpen = false;
    const closes = countOf(rawChunk, ')');
    if (closes > 0) {
      depth = Math.max(0, depth - closes);
      if (depth < negationDepth) scope = 0;
    }
  });
  // Evidence is read generously: every run of digits is a number it states, identifiers' included.
  if (evidence) for (const digits of rest.match(/\d+(?:[.,]\d+)*/g) ?? []) numbers.push(...evidenceValues(digits));
  return { words: [...words], numbers, dates, names: [...new Set(names)], acronyms: [...new Set(acronyms)], namedNumbers, identifiers: [...new Set(identifiers)], negated, negatedWords: [...negatedWords], followingNegation: [...followingNegation], contrasted };
}

function countOf(text: string, mark: string): number {
  let count = 0;
  for (const char of text) if (char === mark) count++;
  return count;
}

function evidenceValues(digits: string): number[] {
  const plain = Number(digits.replace(/,(?=\d{3}\b)/g, ''));
  // "0.5,0.5" is a list of two numbers, not a thousands-separated one.
  const listed = digits.split(',').map(Number).filter((n) => !Number.isNaN(n));
  const parts = digits.split(/[.,]/).map(Number);
  return [...(Number.isNaN(plain) ? [] : [plain]), ...listed, ...parts];
}

/** "RFC 9110", "Go 1.13", "Section 4": a number right after a capitalised word that is not a quantifier or a month. */
function isPartOfName(chunks: readonly string[], index: number): boolean {
  const previous = (chunks[index - 1] ?? '').replace(CHUNK_EDGE, '');
  if (!CAPITALISED.test(previous) || /[.,;:]$/.test(chunks[index - 1] ?? '')) return false;
  const lower = previous.toLowerCase();
  return !QUANTIFIERS.has(lower) && !isStopWord(lower) && !MONTHS.some((month) => month.startsWith(lower.slice(0, 3)) && lower.length >= 3);
}
