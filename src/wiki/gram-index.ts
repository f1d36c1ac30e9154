/**
 * Posting lists of numbered q-grams (q = 2 and 3) for finding strings within a small edit
 * distance. By the q-gram lemma, a string within d edits of `text` keeps at least
 * t = |text| − (q − 1) − q·d of text's q-grams, so it must hold one of any (grams − t + 1)
 * of them: the union of the rarest that many lists holds every such string.
 */
const SIZES = [2, 3] as const;

export class GramIndex {
  private readonly lists = new Map<string, Set<number>>();

  add(id: number, text: string): void {
    for (const q of SIZES) {
      for (const gram of numberedGrams(text, q)) {
        const ids = this.lists.get(gram);
        if (ids) ids.add(id);
        else this.lists.set(gram, new Set([id]));
      }
    }
  }

  delete(id: number, text: string): void {
    for (const q of SIZES) {
      for (const gram of numberedGrams(text, q)) {
        const ids = this.lists.get(gram);
        ids?.delete(id);
        if (ids?.size === 0) this.lists.delete(gram);
      }
    }
  }

  /**
   * Ids that may lie within `allowed` edits of `text` (a superset), or undefined when the
   * text is too short for any q-gram bound and every id is a candidate.
   */
  candidates(text: string, allowed: number): Set<number> | undefined {
    let best: Array<Set<number> | undefined> | undefined;
    let bestCost = Infinity;
    for (const q of SIZES) {
      const mustShare = text.length - (q - 1) - q * allowed;
      if (mustShare < 1) continue;
      const grams = numberedGrams(text, q);
      const lists = grams.map((gram) => this.lists.get(gram)).sort((x, y) => (x?.size ?? 0) - (y?.size ?? 0));
      const chosen = lists.slice(0, grams.length - mustShare + 1);
      const cost = chosen.reduce((sum, list) => sum + (list?.size ?? 0), 0);
      if (cost < bestCost) {
        best = chosen;
        bestCost = cost;
      }
    }
    if (!best) return undefined;
    const ids = new Set<number>();
    for (const list of best) for (const id of list ?? []) ids.add(id);
    return ids;
  }
}

/** q-grams of `text`, each numbered by occurrence (`ab1`, `ab2`) so shared counts follow multiset semantics. */
function numberedGrams(text: string, q: number): string[] {
  const seen = new Map<string, number>();
  const grams: string[] = [];
  for (let i = 0; i + q <= text.length; i++) {
    const gram = text.slice(i, i + q);
    const n = (seen.get(gram) ?? 0) + 1;
    seen.set(gram, n);
    grams.push(`${gram}${n}`);
  }
  return grams;
}
