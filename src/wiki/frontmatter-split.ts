/**
 * Splitting a page into its frontmatter text and body, without parsing either: pure and
 * dependency-free, so callers that only need the body (search snippets, the log check)
 * load no YAML or frontmatter library.
 */
export interface SplitResult {
  yaml: string | undefined;
  body: string;
  bodyLine: number;
}

/** Split `---\nyaml\n---\nbody` without parsing, so a broken YAML block still yields a body. */
export function splitFrontmatter(text: string): SplitResult {
  const normalised = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const open = /^---[ \t]*\r?\n/.exec(normalised);
  if (!open) return { yaml: undefined, body: normalised, bodyLine: 1 };
  const rest = normalised.slice(open[0].length);
  const close = /(^|\r?\n)---[ \t]*(\r?\n|$)/.exec(rest);
  if (!close) return { yaml: undefined, body: normalised, bodyLine: 1 };
  const yaml = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length);
  const consumed = normalised.length - body.length;
  const bodyLine = normalised.slice(0, consumed).split('\n').length;
  return { yaml, body, bodyLine };
}
