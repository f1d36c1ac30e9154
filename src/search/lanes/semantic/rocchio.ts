/** Pages taken as relevant to the query, and how far to move the query towards them. */
export interface SemanticFeedback {
  /** Best first. */
  slots: readonly number[];
  weight: number;
  /** The page at rank r (0 for the best) counts 1 / (1 + rankDecay × r) in their centroid (default 0: all alike). */
  rankDecay?: number;
}

/**
 * Rocchio's rule for pseudo-relevance feedback: unit(query) + weight × unit(the rank-weighted
 * mean of the feedback pages' vectors), as a unit vector. The query itself when no feedback
 * page has a vector.
 */
export function movedTowards(query: Float32Array, feedback: SemanticFeedback, vectorOf: (slot: number) => Float32Array | undefined): Float32Array {
  const dimensions = query.length;
  const centroid = new Float64Array(dimensions);
  let count = 0;
  const decay = feedback.rankDecay ?? 0;
  feedback.slots.forEach((slot, rank) => {
    const row = vectorOf(slot);
    if (!row) return;
    const share = 1 / (1 + decay * rank);
    for (let j = 0; j < dimensions; j++) centroid[j] = centroid[j]! + share * row[j]!;
    count++;
  });
  if (count === 0) return query;
  const queryNorm = Math.hypot(...query) || 1;
  const centroidNorm = Math.hypot(...centroid) || 1;
  const moved = new Float32Array(dimensions);
  for (let j = 0; j < dimensions; j++) moved[j] = query[j]! / queryNorm + (feedback.weight * centroid[j]!) / centroidNorm;
  const norm = Math.hypot(...moved) || 1;
  for (let j = 0; j < dimensions; j++) moved[j] = moved[j]! / norm;
  return moved;
}
