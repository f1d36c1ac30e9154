import type { ClaimCitation } from '../../facts/claims.js';
import type { CandidateFact, SourceLinesReader } from '../../facts/grounding.js';
import { LINE_MARK } from '../../tools/text-window.js';
import type { FlaggedSentence } from './grounding-cache.js';

/**
 * What a grounding finding says: the sentence, what the check found (in the page's own
 * words), and the evidence it compared, quoted as read_file numbers lines.
 */

/** Longest quote of evidence a message carries. */
const QUOTE_CHARS = 320;
/** Least of that quote each cited range gets. */
const MIN_RANGE_QUOTE = 100;

export function flaggedMessage(flag: FlaggedSentence, evidence: readonly CandidateFact[], read: SourceLinesReader): string {
  const where = flag.citations.map((c) => `${c.file}${c.first !== undefined ? `#L${c.first}${c.last !== c.first ? `-${c.last}` : ''}` : ''}`).join(', ');
  const closest = evidence[0];
  const quoted = flag.cited
    ? ` (${where} say: "${citedExcerpt(flag.citations, read, closest) ?? quote(evidence.map((fact) => fact.text).join(' '))}")`
    : closest
      ? ` (closest fact ${closest.id}: "${quote(closest.text)}")`
      : '';
  if (flag.kind === 'unsupported-number') {
    const numbers = flag.numbers ?? [];
    const plural = numbers.length === 1 ? 's' : '';
    return `"${flag.text}": ${numbers.join(', ')} appear${plural} ${flag.cited ? 'nowhere in its cited lines' : "in none of its sources' closest facts"}${quoted}`;
  }
  return `"${flag.text}": ${flag.reason ?? ''}${quoted}`;
}

/**
 * The lines a sentence cites, as written and numbered like read_file's windows
 * (`17│The old RFC …`), bounded to QUOTE_CHARS: the slack either side that matching allows
 * is not quoted, so the quote starts at the first cited line. undefined when none can be read.
 */
export function citedExcerpt(citations: readonly ClaimCitation[], read: SourceLinesReader, closest?: CandidateFact): string | undefined {
  const parts: string[] = [];
  let length = 0;
  // Each cited range gets its share of the quote: a sentence citing two showed only the first (played review Q).
  const ranged = citations.filter((citation) => citation.first !== undefined).length;
  const share = Math.max(MIN_RANGE_QUOTE, Math.floor(QUOTE_CHARS / Math.max(1, ranged)));
  for (const citation of citations) {
    if (citation.first === undefined) continue;
    const budget = Math.min(QUOTE_CHARS, length + share);
    const file = citation.file.replace(/^\.\//, '');
    const lines = read(file);
    if (!lines) continue;
    const last = Math.min(lines.length, citation.last ?? citation.first);
    // A long range is quoted from the line that matched the sentence best: the first 320 characters
    // of a 50-line range rarely hold what decided the finding (a played review's complaint).
    const focus = closest?.source === file && closest.lineStart !== undefined && closest.lineStart > citation.first && closest.lineStart <= last ? closest.lineStart : citation.first;
    if (focus > citation.first) parts.push('…');
    for (let line = focus; line <= last && length <= budget; line++) {
      const text = (lines[line - 1] ?? '').replace(/\s+/g, ' ').trim();
      if (text === '') continue;
      parts.push(`${line}${LINE_MARK}${text}`);
      length += text.length + 8;
    }
  }
  return parts.length === 0 ? undefined : quote(parts.join(' '));
}

export function flaggedFix(flag: FlaggedSentence): string {
  return flag.cited
    ? 'make the sentence say what its cited lines say, or cite the lines that say it'
    : 'make the sentence say what its source says, or cite the source that says it';
}

function quote(text: string): string {
  return text.length <= QUOTE_CHARS ? text : `${text.slice(0, QUOTE_CHARS - 1)}…`;
}

