/**
 * Every MCP answer fits a character budget: an agent's context is finite and a wiki is
 * not. An answer that would be longer is cut, wherever in it the length is (a field deep in
 * a page's frontmatter, thousands of tags): first every text longer than a snippet is
 * shortened, the longest first, so a list keeps as many items as fit; then whole items go
 * off the end of the longest lists; last, texts are cut further. The answer says what was
 * cut, per field. Whatever the shape, the result is at most the budget.
 */
export interface Truncation {
  /** Characters of the whole answer before it was cut. */
  originalChars: number;
  /** The budget it was cut to. */
  maxChars: number;
  /** What was cut, one entry per field: e.g. `results: 7 of 10 items dropped`, `results[].snippet: 50 texts shortened`. */
  cut: string[];
}

/** Room kept for the `truncated` note itself. */
const NOTE_ROOM = 400;
/** Texts are shortened to this before any list loses an item. */
const SHORT_TEXT = 80;

type Json = unknown;
type Path = Array<string | number>;

interface Cuts {
  lists: Map<string, { before: number; after: number }>;
  texts: Map<string, { count: number; before: number; after: number }>;
}

export function fitToBudget(value: Record<string, unknown>, maxChars: number): string {
  const whole = JSON.stringify(value);
  if (whole.length <= maxChars) return whole;
  let fitted = structuredClone(value) as Record<string, unknown>;
  const cuts: Cuts = { lists: new Map(), texts: new Map() };
  const target = Math.max(0, maxChars - NOTE_ROOM);
  const over = (): number => JSON.stringify(fitted).length - target;

  if (over() > 0) shortenTexts(fitted, over(), SHORT_TEXT, cuts);
  for (let guard = 0; guard < 256 && over() > 0; guard++) {
    const list = largestList(fitted);
    if (!list) break;
    const items = list.items;
    const kept = keptItems(items, over());
    const label = labelOf(list.path);
    const record = cuts.lists.get(label) ?? { before: items.length, after: items.length };
    record.after -= items.length - kept;
    cuts.lists.set(label, record);
    items.splice(kept);
  }
  if (over() > 0) shortenTexts(fitted, over(), 0, cuts);

  const note = (): Truncation => ({ originalChars: whole.length, maxChars, cut: describe(cuts) });
  let text = JSON.stringify({ ...fitted, truncated: note() });
  if (text.length > maxChars) {
    // Keys and numbers alone past the budget (an object of thousands of fields): say so and nothing more.
    fitted = {};
    cuts.lists.set('(the whole answer)', { before: 1, after: 0 });
    text = JSON.stringify({ truncated: { ...note(), cut: note().cut.slice(-1) } });
  }
  return text;
}

/** Cut every text longer than some length T (never below `floor`) to T, T as large as frees `excess` characters. */
function shortenTexts(root: Json, excess: number, floor: number, cuts: Cuts): void {
  const texts: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number; path: Path; length: number }> = [];
  walk(root, [], (parent, key, path, item) => {
    if (typeof item === 'string' && item.length > floor) texts.push({ parent, key, path, length: item.length });
  });
  if (texts.length === 0) return;
  const freed = (limit: number): number => texts.reduce((sum, t) => sum + Math.max(0, t.length - limit), 0);
  let low = floor;
  let high = Math.max(...texts.map((t) => t.length));
  // The largest limit that still frees enough (or the floor, when nothing above it does).
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (freed(mid) >= excess + texts.length) low = mid;
    else high = mid - 1;
  }
  for (const t of texts) {
    if (t.length <= low) continue;
    const current = (t.parent as Record<string | number, string>)[t.key] as string;
    (t.parent as Record<string | number, string>)[t.key] = current.slice(0, low);
    const label = labelOf(t.path);
    const record = cuts.texts.get(label) ?? { count: 0, before: 0, after: 0 };
    record.count += 1;
    record.before += t.length;
    record.after += low;
    cuts.texts.set(label, record);
  }
}

/** The list anywhere in the answer whose items take the most room. */
function largestList(root: Json): { items: unknown[]; path: Path } | undefined {
  let best: { items: unknown[]; path: Path } | undefined;
  let bestSize = 0;
  walk(root, [], (_parent, _key, path, item) => {
    if (!Array.isArray(item) || item.length === 0) return;
    const size = JSON.stringify(item).length;
    if (size > bestSize) {
      best = { items: item, path };
      bestSize = size;
    }
  });
  return best;
}

/** Visit every value below `value` (not `value` itself) with its parent, key and path. */
function walk(value: Json, path: Path, visit: (parent: Record<string, unknown> | unknown[], key: string | number, path: Path, item: unknown) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      visit(value, index, [...path, index], item);
      if (item !== null && typeof item === 'object') walk(item, [...path, index], visit);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      visit(value as Record<string, unknown>, key, [...path, key], item);
      if (item !== null && typeof item === 'object') walk(item, [...path, key], visit);
    }
  }
}

/** `results[].snippet`, `page.frontmatter.tags`: a path with list positions folded. */
function labelOf(path: Path): string {
  return path.map((part, i) => (typeof part === 'number' ? '[]' : i === 0 ? part : `.${part}`)).join('').replace(/\.\[\]/g, '[]');
}

function describe(cuts: Cuts): string[] {
  const lines: string[] = [];
  for (const [label, { count, before, after }] of cuts.texts) {
    lines.push(count === 1 ? `${label}: ${before - after} of ${before} characters cut` : `${label}: ${count} texts shortened (${before - after} characters cut)`);
  }
  for (const [label, { before, after }] of cuts.lists) lines.push(`${label}: ${before - after} of ${before} items dropped`);
  return lines;
}

/** How many leading items to keep so that at least `excess` characters go. */
function keptItems(items: unknown[], excess: number): number {
  let removed = 0;
  let keep = items.length;
  while (keep > 0 && removed < excess) {
    keep--;
    removed += JSON.stringify(items[keep]).length + 1;
  }
  return keep;
}
