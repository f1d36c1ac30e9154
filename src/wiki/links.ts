/**
 * Link extraction from page bodies. Inline links are Obsidian-style wikilinks:
 * `[[key]]`, `[[key|label]]`, `[[key#heading]]`. Links inside fenced code blocks and
 * inline code spans are examples, not edges, so they are masked out first.
 */
export interface InlineLink {
  target: string;
  heading?: string;
  label?: string;
  /** 1-based line within the text that was scanned. */
  line: number;
  /** The exact `[[…]]` source text. */
  raw: string;
}

const WIKILINK = /\[\[([^\[\]\n]+?)\]\]/g;

/**
 * Replace code (fenced blocks and inline spans) with spaces, keeping newlines, so offsets
 * and line numbers of everything else are unchanged.
 */
export function maskCode(text: string): string {
  // Most pages have no code at all: nothing to mask, no copy to make.
  if (!text.includes('`') && !text.includes('~~~')) return text;
  const lines = text.split('\n');
  let fence: { char: string; length: number } | undefined;
  const out: string[] = [];
  for (const line of lines) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      const closer = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (closer?.[1] && closer[1][0] === fence.char && closer[1].length >= fence.length) fence = undefined;
      out.push(' '.repeat(line.length));
      continue;
    }
    if (opener?.[1]) {
      fence = { char: opener[1][0] ?? '`', length: opener[1].length };
      out.push(' '.repeat(line.length));
      continue;
    }
    out.push(line);
  }
  return maskCodeSpans(out.join('\n'));
}

/** Inline code spans: a run of N backticks up to the next run of exactly N backticks. */
function maskCodeSpans(text: string): string {
  let result = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '`') {
      // Copy up to the next backtick in one piece.
      const next = text.indexOf('`', i);
      const end = next < 0 ? text.length : next;
      result += text.slice(i, end);
      i = end;
      continue;
    }
    let runEnd = i;
    while (text[runEnd] === '`') runEnd++;
    const run = text.slice(i, runEnd);
    let search = runEnd;
    let close = -1;
    while (search < text.length) {
      const found = text.indexOf(run, search);
      if (found < 0) break;
      const after = found + run.length;
      if (text[after] !== '`' && text[found - 1] !== '`') {
        close = found;
        break;
      }
      search = after;
      while (text[search] === '`') search++;
    }
    if (close < 0) {
      result += run;
      i = runEnd;
      continue;
    }
    const end = close + run.length;
    result += text.slice(i, end).replace(/[^\n]/g, ' ');
    i = end;
  }
  return result;
}

/**
 * Normalise a link target to a page key: trims, drops a folder prefix and a `.md` suffix, and
 * the backslash of a pipe escaped inside a table (`| [[go-language\|Go]] |`: a played page's
 * key was read as "go-language\" and its whole answer refused).
 */
export function targetToKey(target: string): string {
  let key = target.trim().replace(/\\$/, '').trimEnd();
  const slash = key.lastIndexOf('/');
  if (slash >= 0) key = key.slice(slash + 1);
  if (key.toLowerCase().endsWith('.md')) key = key.slice(0, -3);
  return key;
}

/**
 * Each `[[target#heading|label]]` in `masked` (text with its code blanked by maskCode), in
 * order: where it starts, its length, and its parts as written (untrimmed). A visitor, not a
 * list of records: every page's links pass through here when the search index is built.
 */
export function forEachWikilink(
  masked: string,
  visit: (index: number, length: number, target: string, heading: string | undefined, label: string | undefined) => void,
): void {
  WIKILINK.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = WIKILINK.exec(masked)) !== null) {
    const inner = match[1] ?? '';
    const pipe = inner.indexOf('|');
    const beforeLabel = pipe >= 0 ? inner.slice(0, pipe) : inner;
    const hash = beforeLabel.indexOf('#');
    visit(
      match.index,
      match[0].length,
      hash >= 0 ? beforeLabel.slice(0, hash) : beforeLabel,
      hash >= 0 ? beforeLabel.slice(hash + 1) : undefined,
      pipe >= 0 ? inner.slice(pipe + 1) : undefined,
    );
  }
}

export function extractInlineLinks(text: string): InlineLink[] {
  const masked = maskCode(text);
  const links: InlineLink[] = [];
  // Lines are counted incrementally: recounting from the start per link is quadratic on big catalogs.
  let line = 1;
  let counted = 0;
  forEachWikilink(masked, (index, length, targetText, headingText, labelText) => {
    const target = targetToKey(targetText);
    if (!target) return; // [[#heading]] points inside the same page
    line += countLines(masked, counted, index);
    counted = index;
    const link: InlineLink = { target, line, raw: text.slice(index, index + length) };
    const heading = headingText?.trim();
    const label = labelText?.trim();
    if (heading) link.heading = heading;
    if (label) link.label = label;
    links.push(link);
  });
  return links;
}

/** Newlines in text[from, to). */
function countLines(text: string, from: number, to: number): number {
  let newlines = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) newlines++;
  return newlines;
}
