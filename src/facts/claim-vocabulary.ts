/**
 * The words that tell the grounding check what a sentence says beyond its content words:
 * negations and denials, contrasts, conditions, quantifiers, spelled-out numbers, and the
 * function words the shared stop list lacks, and the marks that end a clause or a sentence.
 */

export const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nor', 'neither', 'cannot', 'nothing', 'nobody', 'nowhere']);
/** Chunks after a negation that it governs. */
export const NEGATION_SCOPE = 6;
/** In evidence a negation is read as governing the rest of its clause (up to this many chunks): a paraphrase may move the words. */
export const EVIDENCE_NEGATION_SCOPE = 12;
/** Words that, in evidence, deny what follows them in their clause as a "not" does: "avoids confusion", "eliminate need", "unlikely that … faster". */
export const EVIDENCE_DENIALS = new Set(['avoid', 'avoids', 'avoided', 'avoiding', 'eliminate', 'eliminates', 'eliminated', 'unlikely', 'lack', 'lacks', 'without', 'prevent', 'prevents', 'unnecessary', 'impossible', 'omit', 'omits', 'omitted', 'inappropriate', 'unclear', 'unable', 'disallow', 'disallows', 'disallowed', 'forbid', 'forbids', 'forbidden']);
/** Hyphenated words that deny as those do: "Replacing all possible uses is a non-goal." */
export const EVIDENCE_DENIAL_COMPOUNDS = new Set(['non-goal', 'non-goals']);
/** Word pairs that, in evidence, deny only what follows them: "rather than the block's scope", "instead of an actual macro" (a sentence opening "Rather, …" asserts). */
export const EVIDENCE_FORWARD_DENIALS: Record<string, string> = { rather: 'than', instead: 'of' };
/** A chunk ending a clause: a negation governs no further. */
export const CLAUSE_END = /[.;:!?]["')\]’”*_]*$/;
/** A chunk ending a sentence. */
export const SENTENCE_END = /[.!?]["')\]’”*_]*$/;
export const CONTRASTS = new Set(['rather', 'instead', 'only', 'but', 'unlike', 'except', 'without', 'fail', 'fails', 'failed', 'lack', 'lacks', 'absent', 'neither', 'nor', 'avoid', 'avoids', 'prevent', 'prevents', 'refuse', 'refuses', 'reject', 'rejects', 'opposite', 'unless', 'unable', 'stop', 'stops', 'stopped', 'cease', 'ceases']);
/** Function words the shared stop list lacks (reflexives, fillers): they carry no claim. */
export const MORE_STOP_WORDS = new Set(['itself', 'themselves', 'himself', 'herself', 'myself', 'ourselves', 'yourself', 'just', 'even', 'still', 'thus', 'therefore', 'hence', 'however', 'yet', 'already', 'because', 'while', 'whether', 'if', 'when', 'where', 'what', 'how', 'why', 'them', 'him', 'me', 'us', 'my', 'mine', 'ours', 'theirs', 'via', 'per', 'etc', 'e.g', 'i.e', 'eg', 'ie', 'like', 'much', 'many', 'well', 'often', 'usually', 'instead', 'rather', 'only', 'up', 'through', 'throughout', 'across', 'within', 'upon', 'among', 'toward', 'towards']);
/** Words starting with "un" that do not turn a statement around. */
export const NOT_NEGATIVE_UN = new Set(['under', 'until', 'unit', 'union', 'uniqu', 'univers', 'understand', 'underli', 'undergo', 'unifi', 'uniform']);
/** Words opening a sentence with a condition its main clause answers. */
export const CONDITIONS = new Set(['when', 'whenever', 'if', 'once', 'unless', 'after', 'before', 'while']);
/** Words before a number that say how much, not whose number it is. */
export const QUANTIFIERS = new Set(['about', 'around', 'roughly', 'nearly', 'approximately', 'almost', 'some', 'over', 'under', 'only', 'just', 'exactly', 'since', 'until', 'till', 'circa', 'ca', 'up', 'at', 'least', 'most', 'more', 'less', 'fewer', 'than', 'per', 'every', 'each', 'top', 'first', 'last']);
export const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100, thousand: 1000, dozen: 12, once: 1, twice: 2, single: 1, double: 2, half: 0.5, million: 1e6, billion: 1e9,
};
export const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

/** What makes "not" no denial when a "but" or "also" follows: "not only", "not just", "not merely" (the sentence asserts what follows). */
export const NOT_A_DENIAL = /^(?:only|just|merely)\b/;
/** Verbs a negation may end an elliptical clause after ("C itself has not,"). */
export const AUXILIARIES = new Set(['has', 'have', 'had', 'is', 'are', 'was', 'were', 'do', 'does', 'did', 'will', 'would', 'can', 'could', 'should', 'may', 'might', 'must']);
