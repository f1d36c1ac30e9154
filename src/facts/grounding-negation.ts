import { claimTerms, type ClaimTerms } from './claim-terms.js';
import type { Analysed, CandidateFact } from './grounding-evidence.js';
import { wordsAsWritten } from './grounding-names.js';
import { holds, overlapOf } from './stem-match.js';

/**
 * The negation part of the grounding check: a claim whose polarity differs from its
 * evidence's. It fires only when the polarity clearly differs — the evidence about the claim
 * asserts what the claim denies (or, against facts, denies what the claim asserts, word for
 * word) — not when the evidence merely words a negation its own way.
 */

export interface Ranked {
  item: Analysed;
  overlap: number;
}

/** Share of a claim's words the piece closest to it holds when the claim paraphrases that piece closely. */
const CLOSE_PARAPHRASE = 0.7;
/** Share of each other's words a claim and a piece of evidence hold when the claim is that piece with a negation put in or left out. */
const VERBATIM = 0.8;
/** Overlap above which a negated fact saying the same words is the claim's opposite. */
const SAME_WORDS = 0.8;
/** Words a piece of evidence must share with a claim to be about it: a denial elsewhere in the cited lines is about something else. */
const ABOUT_WORDS = 2;
/** The same, among the claim's facts: the share of its words the closest must hold. */
const ABOUT_SHARE = 0.5;

/**
 * How many of the first words a claim's negation governs a cited denial may share to be the
 * same denial worded another way ("No `**` patterns: `path.Match` lacks them" against "This
 * syntax is not available in `path.Match`"). More would count a denial of anything nearby.
 */
const SAME_DENIAL_WORDS = 2;

/** What a claim denies that its evidence does not: the word (a stem), or nothing when the evidence does not mention what it denies; and the piece that says the word plainly. */
type Denial = { word?: string; anchor?: Analysed } | undefined;

/**
 * The finding says what was compared, not a verdict: "it denies "documentation", which its
 * cited lines do not deny" can be checked by a reader; "it negates what its cited lines
 * say" was wrong most times a played review read it (a denial worded another way).
 */
export function negationProblem(
  terms: ClaimTerms,
  pool: readonly Analysed[],
  ranked: readonly Ranked[],
  against: 'cited' | 'facts',
  claimText = '',
): { kind: 'ungrounded'; reason: string; sure: boolean; anchor?: CandidateFact } | undefined {
  const evidence = against === 'cited' ? 'its cited lines' : 'its closest fact';
  const pieces = [...new Set([...pool, ...ranked.map((r) => r.item)])];
  if (terms.negated) {
    const denial = against === 'cited' ? citedDenial(terms, pool, ranked, claimText) : factDenial(terms, ranked);
    if (!denial) return unmatchedDenial(terms, ranked, evidence, claimText);
    const word = denial.word === undefined ? undefined : wordsAsWritten(claimText, [denial.word])[0];
    const reason = word ? `it denies "${word}", which ${evidence} do${against === 'cited' ? '' : 'es'} not deny` : `it denies what ${evidence} do${against === 'cited' ? '' : 'es'} not mention`;
    // Sure only of a denial put into what a piece of evidence says near word for word: a denial worded another way is a question.
    // A denial of a word no cited line holds ("…, which is not in `raw/`") adds to what they say: a question.
    const sure = denial.word !== undefined && terms.words.includes(denial.word) && nearVerbatim(terms, pieces, false);
    return denial.anchor ? { kind: 'ungrounded', reason, sure, anchor: denial.anchor.fact } : { kind: 'ungrounded', reason, sure };
  }
  // A label ending in a colon ("Rust 2021 and earlier (RPIT):") introduces a list: it asserts nothing a negation could contradict.
  if (against === 'facts' && !claimText.trimEnd().endsWith(':') && droppedNegation(terms, ranked)) return { kind: 'ungrounded', reason: `${evidence} denies what it asserts`, sure: nearVerbatim(terms, pieces, true) };
  return undefined;
}

/**
 * A question, never a warning: a claim that denies something while the evidence closest to it
 * denies, contrasts or turns around nothing. The rule above lets such a claim pass when some
 * cited piece denies a word of it (most denials worded another way); a planted "not" often
 * passes with it, so the closest piece is asked about as well.
 */
function unmatchedDenial(terms: ClaimTerms, ranked: readonly Ranked[], evidence: string, claimText: string): { kind: 'ungrounded'; reason: string; sure: boolean; anchor?: CandidateFact } | undefined {
  const closest = ranked[0]?.item;
  const first = terms.negatedWords[0];
  // Only a piece saying most of what the claim says: a claim paraphrasing it closely and adding a denial.
  if (!ranked[0] || ranked[0].overlap < CLOSE_PARAPHRASE * terms.words.length) return undefined;
  if (!closest || first === undefined || closest.terms.negated || closest.terms.contrasted || closest.terms.negatedWords.length > 0) return undefined;
  const word = wordsAsWritten(claimText, [first])[0] ?? first;
  return { kind: 'ungrounded', reason: `it denies "${word}", and the closest of ${evidence === 'its cited lines' ? 'its cited lines' : 'its facts'} denies nothing`, sure: false, anchor: closest.fact };
}

/**
 * Whether the claim is, but for its negation, a piece of its evidence near word for word: the
 * piece (which does not negate, or which does when `negated`) holds VERBATIM of the claim's
 * words and the claim VERBATIM of the piece's.
 */
function nearVerbatim(terms: ClaimTerms, pieces: readonly Analysed[], negated: boolean): boolean {
  const claimWords = new Set(terms.words);
  return pieces.some(
    (item) => item.terms.negated === negated && item.words.size > 0 && overlapOf(terms.words, item.words) >= VERBATIM * terms.words.length && overlapOf([...item.words], claimWords) >= VERBATIM * item.words.size,
  );
}

/**
 * A cited claim that denies something. The word it denies is the first its negation governs
 * that a cited piece about the claim (sharing ABOUT_WORDS of its words) holds — a heading
 * that shares only that word is about something else — or, failing that, any cited piece.
 * Some piece must deny that word too: a piece about the claim, or — when it is the word right
 * after the claim's negation — any piece whose own negation it follows (not one where it is
 * the subject before a negation: "async & await will flourish, that are not tied to IO" does
 * not deny "awaited"). When no cited piece holds a word it denies (the cited lines word it
 * their own way: "nobody wonders" for "avoids confusion"), any cited piece that denies or
 * turns something around will do — unless it denies the page's own subject, which the cited
 * lines never mention.
 */
function citedDenial(terms: ClaimTerms, pool: readonly Analysed[], ranked: readonly Ranked[], claimText: string): Denial {
  const about = Math.min(ABOUT_WORDS, terms.words.length);
  const units = [...new Set([...pool, ...ranked.map((r) => r.item)])];
  const isAbout = (item: Analysed): boolean => overlapOf(terms.words, item.words) >= about;
  if (deniedInOtherWords(terms, units, isAbout, negatedClauseWords(terms, claimText))) return undefined;
  const denied =
    terms.negatedWords.find((word) => units.some((item) => isAbout(item) && holds(item.words, word))) ??
    terms.negatedWords.find((word) => units.some((item) => holds(item.words, word)));
  if (denied === undefined) {
    // A word it denies that is not among its checked words is the page's topic (see groundPage).
    const topic = terms.negatedWords.find((word) => !terms.words.includes(word));
    if (topic !== undefined) return { word: topic };
    return ranked.some((r) => r.item.terms.negated || r.item.terms.contrasted || r.item.terms.negatedWords.length > 0) ? undefined : {};
  }
  // A denial the cited lines match only on a later word, while the word the claim's negation governs first is
  // in none of them, may deny another thing than they do (held-out played wiki 12: "is not held in a new … field"
  // passed on a cited "does not … mess with new code"): asked about, not passed.
  const first = terms.negatedWords[0];
  const governedElsewhere = first !== undefined && denied !== first && terms.words.includes(first) && !units.some((item) => holds(item.words, first));
  if (!governedElsewhere && units.some((item) => denies(item, denied) && ((denied === first && holds(new Set(item.terms.followingNegation), denied)) || isAbout(item)))) return undefined;
  if (governedElsewhere && first !== undefined) return { word: first };
  // The finding quotes from the piece saying the word plainly (a played review read quotes that began past it).
  let anchor: Analysed | undefined;
  let closest = 0;
  for (const item of units) {
    const overlap = overlapOf(terms.words, item.words);
    if (holds(item.words, denied) && overlap > closest) [anchor, closest] = [item, overlap];
  }
  return anchor ? { word: denied, anchor } : { word: denied };
}

/**
 * Whether the cited lines deny what the claim denies, in words of their own: a piece about the
 * claim denies one of the first words the claim's negation governs, and no piece asserting
 * those words is closer to the clause that negates. In played reviews most "it denies X, which
 * its cited lines do not deny" findings were such denials ("not all uses" against "Replacing all
 * possible uses is a non-goal"); a planted "not" is still found, as the line it contradicts
 * says the clause's words plainly ("Any reader could not edit any page" against "Any reader
 * could edit any page", beside "a page that did not exist yet").
 */
function deniedInOtherWords(terms: ClaimTerms, units: readonly Analysed[], isAbout: (item: Analysed) => boolean, clauseWords: readonly string[]): boolean {
  const first = terms.negatedWords.slice(0, SAME_DENIAL_WORDS);
  let closestDenial = 0;
  let closestAssertion = 0;
  for (const item of units) {
    const denied = new Set(item.terms.negatedWords);
    const overlap = overlapOf(clauseWords, item.words);
    if (isAbout(item) && first.some((word) => holds(denied, word))) closestDenial = Math.max(closestDenial, overlap);
    if (first.some((word) => holds(item.words, word) && !holds(denied, word))) closestAssertion = Math.max(closestAssertion, overlap);
  }
  return closestDenial > 0 && closestDenial >= closestAssertion;
}

/** The checked words of the claim's first clause that negates (split at ";", ":" and full stops), else all of them. */
function negatedClauseWords(terms: ClaimTerms, claimText: string): readonly string[] {
  const clause = claimText.split(/[;:.]\s/).find((part) => claimTerms(part).negated);
  return clause === undefined ? terms.words : claimTerms(clause).words.filter((word) => terms.words.includes(word));
}

/**
 * An uncited claim that denies something. A closest fact saying much of what it says must
 * deny it too ("no authors are named" is not the opposite of "Feature Name: async_await").
 * When none says that much, the closest facts about it (sharing ABOUT_WORDS of its words) that
 * hold a word it denies decide: one of them must deny that word.
 */
function factDenial(terms: ClaimTerms, ranked: readonly Ranked[]): Denial {
  const best = ranked[0];
  if (!best) return undefined;
  if (best.overlap >= ABOUT_SHARE * terms.words.length) {
    const denied = terms.negatedWords.find((word) => holds(best.item.words, word));
    if (denied === undefined) return best.item.terms.negated ? undefined : {};
    return denies(best.item, denied) ? undefined : { word: denied };
  }
  const about = ranked.filter((r) => r.overlap >= Math.min(ABOUT_WORDS, terms.words.length)).map((r) => r.item);
  const denied = terms.negatedWords.find((word) => about.some((item) => holds(item.words, word)));
  return denied !== undefined && !about.some((item) => denies(item, denied)) ? { word: denied } : undefined;
}

/** A negation the claim drops: its closest fact says the same words negated, and no other near fact says them plainly. */
function droppedNegation(terms: ClaimTerms, ranked: readonly Ranked[]): boolean {
  const best = ranked[0];
  if (terms.contrasted || !best || !best.item.terms.negated || best.overlap < SAME_WORDS * terms.words.length) return false;
  const near = ranked.filter((r, index) => index < 1 || r.overlap >= ABOUT_SHARE * terms.words.length).map((r) => r.item);
  return !near.some((item) => !item.terms.negated && item !== best.item && overlapOf(terms.words, item.words) >= SAME_WORDS * terms.words.length);
}

/** Whether a piece of evidence denies `word`: it holds the word in the scope of its negation or denial. */
function denies(item: Analysed, word: string): boolean {
  return holds(item.words, word) && holds(new Set(item.terms.negatedWords), word);
}
