import type { Frontmatter } from '../../wiki/page.js';

/**
 * A fast reader for the frontmatter pages are actually written with — one `key: value`
 * per line, values plain or simply quoted scalars or one-line `[a, b]` lists — that gives
 * exactly what the YAML parser gives for them. Anything else (block lists, nested maps,
 * escapes, anchors, comments, numbers, booleans, duplicate keys…) returns undefined and
 * the caller uses the YAML parser. At 10k pages the YAML parser is a tenth of a full
 * index build; this is a fraction of that.
 */
const LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/;
/** Characters YAML treats specially or refuses; a value holding one is left to the parser. */
const AWKWARD = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\ufeff\t\\]/;
/** Plain scalars that the YAML 1.2 core schema reads as null, booleans or numbers. */
const NOT_A_STRING =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
/** First characters that make YAML read something other than a plain string. */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;

export function parseSimpleFrontmatter(yaml: string): Frontmatter | undefined {
  if (AWKWARD.test(yaml.replace(/\n/g, ''))) return undefined;
  const out: Frontmatter = {};
  const seen = new Set<string>();
  for (const line of yaml.split('\n')) {
    if (line.trim() === '') {
      if (line !== '' && !/^ *$/.test(line)) return undefined;
      continue;
    }
    const match = LINE.exec(line);
    if (!match) return undefined;
    const key = match[1] ?? '';
    if (seen.has(key) || key === '__proto__' || NOT_A_STRING.test(key)) return undefined;
    seen.add(key);
    const value = readValue(trimSpaces(match[2] ?? ''));
    if (value === undefined) return undefined;
    out[key] = value;
  }
  return out;
}

function readValue(text: string): string | string[] | null | undefined {
  if (text === '') return null;
  if (text.startsWith('[')) return readList(text);
  return readScalar(text, false);
}

function readList(text: string): string[] | undefined {
  if (!text.endsWith(']')) return undefined;
  const inner = trimSpaces(text.slice(1, -1));
  if (inner === '') return [];
  const items: string[] = [];
  for (const part of inner.split(',')) {
    const item = readScalar(trimSpaces(part), true);
    if (typeof item !== 'string') return undefined;
    items.push(item);
  }
  return items;
}

function readScalar(text: string, inList: boolean): string | undefined {
  if (text === '') return undefined;
  const first = text[0];
  if (first === '"') return /^"[^"]*"$/.test(text) ? text.slice(1, -1) : undefined;
  if (first === "'") return /^'(?:[^']|'')*'$/.test(text) ? text.slice(1, -1).replace(/''/g, "'") : undefined;
  if (INDICATOR.test(text) || NOT_A_STRING.test(text)) return undefined;
  if (text.includes(': ') || text.includes(' #') || text.endsWith(':')) return undefined;
  if (inList && /[[\]{}:]/.test(text)) return undefined;
  return text;
}

/** YAML trims spaces around a scalar, not other white space (a no-break space stays). */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 32) start++;
  while (end > start && text.charCodeAt(end - 1) === 32) end--;
  return text.slice(start, end);
}
