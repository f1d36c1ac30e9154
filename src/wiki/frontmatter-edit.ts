import YAML from 'yaml';
import { FIELD_ORDER, parsePage, splitFrontmatter, type Page } from './page.js';

/**
 * The tool's edits of a page's frontmatter block, made on the YAML document rather than by
 * printing the fields afresh: what is not edited keeps its `#` comments, its quoting, its
 * folded summaries and block lists, and its order. Used by the write tools (syncFrontmatter)
 * and by `wiki lint --fix`'s repairs.
 */
export type FrontmatterEdit = (doc: YAML.Document, map: YAML.YAMLMap) => void;

/**
 * `text` (parsed as `page`) with `edit` applied to its frontmatter block and `body` after it
 * (the page's own body when absent). Undefined when the page has no parsable block, or when
 * printing it back would change a field the edit did not touch (`touched`): an odd block is
 * left to its owner rather than re-spelled.
 */
export function editFrontmatter(text: string, page: Page, touched: readonly string[], edit: FrontmatterEdit, body?: string): string | undefined {
  const split = splitFrontmatter(text);
  if (page.parseError || split.yaml === undefined) return undefined;
  const doc = YAML.parseDocument(split.yaml);
  if (!YAML.isMap(doc.contents)) return undefined;
  const before = new Map(doc.contents.items.map((pair) => [pair, valueJson(pair)]));
  edit(doc, doc.contents);
  const yaml = spliceEdits(split.yaml, doc.contents, before);
  const prefix = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const head = text.slice(prefix.length, text.length - split.body.length);
  const opening = /^---[ \t]*\r?\n/.exec(head)?.[0] ?? '---\n';
  const closing = /\r?\n?---[ \t]*(\r?\n|$)$/.exec(head)?.[0].replace(/^\r?\n/, '') ?? '---\n';
  const edited = `${prefix}${opening}${yaml}${closing}${body ?? split.body}`;
  const after = parsePage(page.path, edited);
  if (after.parseError) return undefined;
  if (body === undefined && after.body !== page.body) return undefined;
  const rest = (p: Page): string => JSON.stringify(Object.entries(p.frontmatter).filter(([field]) => !touched.includes(field)));
  return rest(page) === rest(after) ? edited : undefined;
}

/**
 * The block with each field the edit left alone as its original lines, byte for byte, and
 * only the fields it changed or added printed afresh (with the comment lines that followed
 * a changed field kept after it).
 */
function spliceEdits(yaml: string, map: YAML.YAMLMap, before: ReadonlyMap<YAML.Pair, string>): string {
  const lines = yaml.split('\n');
  const lineOf = (offset: number): number => yaml.slice(0, offset).split('\n').length - 1;
  const originals = [...before.keys()];
  const starts = originals.map((pair) => lineOf(keyRange(pair)?.[0] ?? 0));
  const spanOf = (pair: YAML.Pair): { from: number; valueTo: number; to: number } => {
    const i = originals.indexOf(pair);
    const from = starts[i] ?? 0;
    const to = starts[i + 1] ?? (lines.at(-1) === '' ? lines.length - 1 : lines.length);
    const end = YAML.isNode(pair.value) && pair.value.range ? pair.value.range[1] : (keyRange(pair)?.[1] ?? 0);
    return { from, valueTo: Math.min(to, Math.max(from + 1, lineOf(Math.max(end - 1, 0)) + 1)), to };
  };
  const out: string[] = lines.slice(0, starts[0] ?? 0);
  for (const pair of map.items) {
    const original = before.get(pair);
    if (original === undefined) {
      out.push(...printPair(pair));
      continue;
    }
    const span = spanOf(pair);
    if (original === valueJson(pair)) out.push(...lines.slice(span.from, span.to));
    else out.push(...printPair(pair), ...lines.slice(span.valueTo, span.to));
  }
  return `${out.join('\n')}\n`;
}

function keyRange(pair: YAML.Pair): readonly number[] | undefined {
  return YAML.isNode(pair.key) ? (pair.key.range ?? undefined) : undefined;
}

function valueJson(pair: YAML.Pair): string {
  return JSON.stringify(YAML.isNode(pair.value) ? pair.value.toJSON() : pair.value) ?? 'undefined';
}

function printPair(pair: YAML.Pair): string[] {
  const single = new YAML.Document();
  const map = new YAML.YAMLMap();
  map.items.push(pair);
  single.contents = map;
  const printed = single.toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, '').split('\n');
  // A comment above the field is the parser's `commentBefore`, yet its lines stay in place with the
  // field before it: printed again here, the owner's comment would appear twice.
  const first = printed.findIndex((line) => !/^\s*#/.test(line));
  return first <= 0 ? printed : printed.slice(first);
}

/** Add `items` to the list `field` (a flow list `[a, b]` when the field is new). */
export function extendList(doc: YAML.Document, map: YAML.YAMLMap, field: string, items: readonly string[]): void {
  if (items.length === 0) return;
  const current = map.get(field, true);
  if (YAML.isSeq(current)) {
    for (const item of items) current.add(doc.createNode(item));
    return;
  }
  const seq = doc.createNode([...items]) as YAML.YAMLSeq;
  seq.flow = true;
  setField(doc, map, field, seq);
}

/** Replace, in the list (or single value) `field`, each string entry `swap` maps to another. */
export function swapEntries(map: YAML.YAMLMap, field: string, swap: (entry: string) => string): void {
  const current = map.get(field, true);
  const nodes = YAML.isSeq(current) ? current.items : [current];
  for (const node of nodes) {
    if (YAML.isScalar(node) && typeof node.value === 'string') node.value = swap(node.value);
  }
}

/**
 * Set `field`, in place when present; else just after the last field FIELD_ORDER puts before
 * it (the owner's order otherwise kept), or before the first it puts after it, or last.
 */
export function setField(doc: YAML.Document, map: YAML.YAMLMap, field: string, value: unknown): void {
  const index = map.items.findIndex((pair) => YAML.isScalar(pair.key) && pair.key.value === field);
  const node = YAML.isNode(value) ? value : doc.createNode(value);
  if (index >= 0) {
    const pair = map.items[index];
    if (pair) pair.value = node;
    return;
  }
  const order = FIELD_ORDER as readonly string[];
  const rank = order.indexOf(field);
  const ranks = map.items.map((pair) => order.indexOf(YAML.isScalar(pair.key) ? String(pair.key.value) : ''));
  const before = ranks.reduce((last, other, i) => (other >= 0 && other < rank ? i : last), -1);
  const after = ranks.findIndex((other) => other > rank);
  const pair = doc.createPair(field, node);
  if (before >= 0) map.items.splice(before + 1, 0, pair);
  else if (after >= 0) map.items.splice(after, 0, pair);
  else map.items.push(pair);
}
