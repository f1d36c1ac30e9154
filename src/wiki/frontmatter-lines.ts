import { splitFrontmatter } from './frontmatter-split.js';

/**
 * Edits of one frontmatter field that touch only that field's lines, so the owner's
 * comments, quoting, folded text and list style elsewhere in the block survive the tool.
 */

const FIELD_LINE = (field: string): RegExp => new RegExp(`^${field.replace(/[-_]/g, (c) => `\\${c}`)}\\s*:(.*)$`);

/** The page with `value` gone from list field `field` (flow `[a, b]` or block `- a` style); unchanged when absent. */
export function withoutListEntry(pageText: string, field: string, matches: (entry: string) => boolean): string {
  const { bodyLine } = splitFrontmatter(pageText);
  if (bodyLine === 1) return pageText;
  const lines = pageText.split('\n');
  const end = bodyLine - 2; // the closing fence
  const at = lines.findIndex((line, i) => i > 0 && i < end && FIELD_LINE(field).test(line));
  if (at === -1) return pageText;
  const rest = (FIELD_LINE(field).exec(lines[at] ?? '')?.[1] ?? '').trim();
  if (rest.startsWith('[')) {
    const inner = rest.replace(/^\[/, '').replace(/\]\s*(#.*)?$/, '');
    const comment = /\]\s*(#.*)$/.exec(rest)?.[1];
    const kept = inner
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '' && !matches(unquote(entry)));
    lines[at] = `${field}: [${kept.join(', ')}]${comment ? ` ${comment}` : ''}`;
    return lines.join('\n');
  }
  for (let i = at + 1; i < end; i++) {
    const item = /^(\s*)-\s+(.*?)\s*(#.*)?$/.exec(lines[i] ?? '');
    if (!item) {
      if (/^\s*(#.*)?$/.test(lines[i] ?? '')) continue;
      break;
    }
    if (matches(unquote(item[2] ?? ''))) {
      lines.splice(i, 1);
      i--;
    }
  }
  return lines.join('\n');
}

/** The page with scalar field `field` set to `value`: its own line replaced, or a line added at the end of the block. */
export function withScalarField(pageText: string, field: string, value: string): string {
  const { bodyLine } = splitFrontmatter(pageText);
  if (bodyLine === 1) return pageText;
  const lines = pageText.split('\n');
  const end = bodyLine - 2;
  const at = lines.findIndex((line, i) => i > 0 && i < end && FIELD_LINE(field).test(line));
  if (at === -1) lines.splice(end, 0, `${field}: ${value}`);
  else lines[at] = `${field}: ${value}`;
  return lines.join('\n');
}

function unquote(entry: string): string {
  return entry.replace(/^(['"])(.*)\1$/, '$2');
}
