export interface ScoredId {
  id: string;
  score: number;
}

/**
 * The `limit` best (score, id) pairs offered, best first: higher score, then lower id.
 * A min-heap of the best so far, so most offers cost one comparison; ids are looked up
 * only to break ties.
 */
export class BestScores {
  private readonly docs: number[] = [];
  private readonly scores: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly idOf: (doc: number) => string,
  ) {}

  offer(doc: number, score: number): void {
    const { docs, scores } = this;
    if (docs.length < this.limit) {
      docs.push(doc);
      scores.push(score);
      this.up(docs.length - 1);
    } else if (this.limit > 0 && this.worse(docs[0]!, scores[0]!, doc, score)) {
      docs[0] = doc;
      scores[0] = score;
      this.down(0);
    }
  }

  sorted(): ScoredId[] {
    const hits = this.docs.map((doc, i) => ({ id: this.idOf(doc), score: this.scores[i]! }));
    return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The best documents themselves (not their ids), best first. */
  sortedDocs(): Array<{ doc: number; score: number }> {
    const hits = this.docs.map((doc, i) => ({ doc, score: this.scores[i]! }));
    return hits.sort((a, b) => (this.worse(a.doc, a.score, b.doc, b.score) ? 1 : this.worse(b.doc, b.score, a.doc, a.score) ? -1 : 0));
  }

  /** True when (docA, a) ranks below (docB, b). */
  private worse(docA: number, a: number, docB: number, b: number): boolean {
    if (a !== b) return a < b;
    return this.idOf(docA) > this.idOf(docB);
  }

  private up(i: number): void {
    const { docs, scores } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(docs[i]!, scores[i]!, docs[parent]!, scores[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const { docs, scores } = this;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < docs.length && this.worse(docs[left]!, scores[left]!, docs[worst]!, scores[worst]!)) worst = left;
      if (right < docs.length && this.worse(docs[right]!, scores[right]!, docs[worst]!, scores[worst]!)) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  private swap(i: number, j: number): void {
    const { docs, scores } = this;
    [docs[i], docs[j]] = [docs[j]!, docs[i]!];
    [scores[i], scores[j]] = [scores[j]!, scores[i]!];
  }
}

/** The `count` best-scoring slots, best first (ties: the lower `idOf`). */
export function bestSlots(slots: Int32Array, scores: Float64Array, count: number, idOf: (slot: number) => string): number[] {
  const best = new BestScores(count, idOf);
  for (let i = 0; i < slots.length; i++) if (slots[i]! >= 0 && scores[i]! > 0) best.offer(slots[i]!, scores[i]!);
  return best.sortedDocs().map((hit) => hit.doc);
}
