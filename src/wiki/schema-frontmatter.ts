import YAML from 'yaml';

/**
 * schema.md's frontmatter and prose, split by the rules gray-matter applies (the parser
 * schema.md was read with before) so every schema.md reads as it did, but without loading
 * gray-matter and the second YAML library it brings: schema.md is read by every command.
 *
 * The rules: a leading BOM is dropped; the text has frontmatter when it starts with `---`
 * not followed by another `-`; the rest of that first line, trimmed, is a language label
 * (removed); the block runs to the first `\n---` (or to the end, leaving no body); a block
 * that is empty once `#` comment lines are removed is `{}` without parsing; otherwise it
 * is parsed as YAML as is, so the line numbers in YAML errors are those gray-matter gave;
 * a null document is `{}`; the body starts after the closing `---`, less one `\r` and
 * then one `\n`.
 */
export interface SchemaFrontmatter {
  /** The parsed block: normally a mapping, but whatever the YAML holds (a list, a string…). */
  data: unknown;
  body: string;
}

const OPEN = '---';
const CLOSE = '\n---';

/** Throws when the block is not valid YAML, or carries a label other than yaml/yml. */
export function readSchemaFrontmatter(text: string): SchemaFrontmatter {
  const content = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!content.startsWith(OPEN) || content.charAt(OPEN.length) === '-') return { data: {}, body: content };
  let rest = content.slice(OPEN.length);
  const label = rest.slice(0, rest.search(/\r?\n/));
  const language = label.trim();
  if (language) rest = rest.slice(label.length);
  let closeIndex = rest.indexOf(CLOSE);
  if (closeIndex === -1) closeIndex = rest.length;
  const block = rest.slice(0, closeIndex);
  let data: unknown = {};
  if (block.replace(/^\s*#[^\n]+/gm, '').trim() !== '') {
    if (language && !/^ya?ml$/i.test(language)) throw new Error(`the frontmatter is marked "${language}"; schema.md's frontmatter is YAML`);
    data = YAML.parse(block) ?? {};
  }
  let body = closeIndex === rest.length ? '' : rest.slice(closeIndex + CLOSE.length);
  if (body.startsWith('\r')) body = body.slice(1);
  if (body.startsWith('\n')) body = body.slice(1);
  return { data, body };
}
