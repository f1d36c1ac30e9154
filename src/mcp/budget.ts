/**
 * Every MCP answer fits a character budget: an agent's context is finite and a wiki is
 * not. An answer that would be longer is cut at its largest parts (whole items off the end
 * of its longest list, or the tail of its longest text) until it fits, and says so.
 */
export interface Truncation {
  /** Characters of the whole answer before it was cut. */
  originalChars: number;
  /** The budget it was cut to. */
  maxChars: number;
  /** What was cut, one entry per field: e.g. `results: 7 of 10 items dropped`. */
  cut: string[];
}

/** Room kept for the `truncated` note itself. */
const NOTE_ROOM = 400;

export function fitToBudget(value: Record<string, unknown>, maxChars: number): string {
  const whole = JSON.stringify(value);
  if (whole.length <= maxChars) return whole;
  const fitted: Record<string, unknown> = { ...value };
  const dropped = new Map<string, { before: number; after: number; unit: 'items' | 'characters' }>();
  const target = Math.max(0, maxChars - NOTE_ROOM);
  for (let guard = 0; guard < 64 && JSON.stringify(fitted).length > target; guard++) {
    const field = largestShrinkable(fitted);
    if (field === undefined) break;
    const current = fitted[field] as unknown[] | string;
    const excess = JSON.stringify(fitted).length - target;
    const record = dropped.get(field) ?? {
      before: current.length,
      after: current.length,
      unit: Array.isArray(current) ? ('items' as const) : ('characters' as const),
    };
    if (Array.isArray(current)) {
      fitted[field] = current.slice(0, keptItems(current, excess));
    } else {
      fitted[field] = current.slice(0, Math.max(0, current.length - excess - 1));
    }
    record.after = (fitted[field] as unknown[] | string).length;
    dropped.set(field, record);
  }
  const cut = [...dropped].map(([field, { before, after, unit }]) =>
    unit === 'items' ? `${field}: ${before - after} of ${before} items dropped` : `${field}: ${before - after} of ${before} characters cut`,
  );
  const truncated: Truncation = { originalChars: whole.length, maxChars, cut };
  return JSON.stringify({ ...fitted, truncated });
}

/** The top-level list or text that takes the most room, if any can still shrink. */
function largestShrinkable(value: Record<string, unknown>): string | undefined {
  let best: string | undefined;
  let bestSize = 0;
  for (const [field, item] of Object.entries(value)) {
    if (!(Array.isArray(item) || typeof item === 'string') || item.length === 0) continue;
    const size = JSON.stringify(item).length;
    if (size > bestSize) {
      best = field;
      bestSize = size;
    }
  }
  return best;
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
