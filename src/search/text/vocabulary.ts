/**
 * Terms interned as dense integer ids, for a bulk build: the lanes then count and group
 * by array index instead of hashing the same strings again in every lane. One vocabulary
 * lives for one build; ids mean nothing outside it.
 */
export class Vocabulary {
  private readonly ids = new Map<string, number>();
  /** Term by id. */
  readonly terms: string[] = [];

  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }

  get size(): number {
    return this.terms.length;
  }

  /** The ids sorted by their terms (in the code-unit order persisted indexes use). */
  sortedIds(ids: Iterable<number>): number[] {
    const terms = this.terms;
    return [...ids].sort((a, b) => {
      const x = terms[a] ?? '';
      const y = terms[b] ?? '';
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
}
