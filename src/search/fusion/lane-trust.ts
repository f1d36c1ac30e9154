import type { LaneScores } from './score-fusion.js';

/** EXPERIMENT: per-query lane trust. */
export interface LaneTrustParams {
  /** Semantic (and token) weight × agreement^power, agreement = overlap of the lexical and semantic top `agreementDepth` / depth (power 0: off). */
  agreementDepth: number;
  agreementPower: number;
  /** Agreement measured on the semantic lane before feedback (an extra scan) instead of its final scores. */
  agreementRaw: boolean;
  /** Semantic (and token) weight × (lexical score at rank clarityRank / best)^clarityPower (power 0: off). */
  clarityRank: number;
  clarityPower: number;
  /** Semantic and token contributions to pages the lexical lane did not score, times this (1: as is). */
  unmatchedShare: number;
  /** Pages outside the lexical lane's best `rerankDepth` count as unmatched (0: every lexical match is matched). */
  rerankDepth: number;
  /** Semantic cosines as z-scores over the lane's best zDepth (0: off), z × zScale, below 0 dropped. */
  /** Semantic score × (gate + (1 − gate) × the page's lexical score / best) (1: off). */
  gate: number;
  /** Semantic weight × (mean pairwise cosine of the lexical top 5 pages' vectors / coherenceRef)^coherencePower, capped at coherenceCap (power 0: off). */
  coherencePower: number;
  coherenceRef: number;
  coherenceCap: number;
  zDepth: number;
  /** The lexical lane as z-scores too (over its best zDepth, × 1). */
  zLexical: boolean;
  zScale: number;
  /** Apply to token lane too. */
  token: boolean;
}

export const NO_TRUST: LaneTrustParams = { agreementDepth: 10, agreementPower: 0, agreementRaw: false, clarityRank: 10, clarityPower: 0, unmatchedShare: 1, rerankDepth: 0, gate: 1, coherencePower: 0, coherenceRef: 0.5, coherenceCap: 10, zDepth: 0, zLexical: false, zScale: 1, token: true };

function topSlots(lane: LaneScores, depth: number): number[] {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < lane.scores.length; i++) {
    const s = lane.scores[i]!;
    if (s > 0) pairs.push([lane.slots ? lane.slots[i]! : i, s]);
  }
  pairs.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return pairs.slice(0, depth).map((p) => p[0]);
}

function sortedScores(lane: LaneScores): number[] {
  const values: number[] = [];
  for (let i = 0; i < lane.scores.length; i++) if (lane.scores[i]! > 0) values.push(lane.scores[i]!);
  return values.sort((a, b) => b - a);
}

export function trustLanes(scored: readonly LaneScores[], params: LaneTrustParams, rawSemantic?: Float64Array, coherence?: number): LaneScores[] {
  const lexical = scored.find((l) => l.lane === 'lexical');
  const semantic = scored.find((l) => l.lane === 'semantic');
  let factor = 1;
  if (coherence !== undefined && params.coherencePower !== 0) factor *= Math.min(params.coherenceCap, Math.pow(Math.max(0, coherence) / params.coherenceRef, params.coherencePower));
  if (lexical && semantic && params.agreementPower > 0) {
    const depth = params.agreementDepth;
    const lexTop = new Set(topSlots(lexical, depth));
    const semTop = topSlots(rawSemantic ? { ...semantic, scores: rawSemantic } : semantic, depth);
    const overlap = semTop.filter((s) => lexTop.has(s)).length / depth;
    factor *= Math.pow(overlap, params.agreementPower);
  }
  if (lexical && params.clarityPower > 0) {
    const values = sortedScores(lexical);
    const best = values[0] ?? 0;
    const at = values[Math.min(values.length, params.clarityRank) - 1] ?? 0;
    factor *= best > 0 ? Math.pow(at / best, params.clarityPower) : 1;
  }
  const matched = lexical ? new Set(topSlots(lexical, params.rerankDepth > 0 ? params.rerankDepth : Infinity)) : undefined;
  return scored.map((lane) => {
    if (lane.lane === 'lexical' && params.zLexical && params.zDepth > 0) {
      const values = sortedScores(lane).slice(0, params.zDepth);
      const mean = values.reduce((a, b) => a + b, 0) / (values.length || 1);
      const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length || 1)) || 1;
      const z = new Float64Array(lane.scores.length);
      for (let i = 0; i < z.length; i++) z[i] = lane.scores[i]! > 0 ? Math.max(0, (lane.scores[i]! - mean) / sd) : 0;
      return { ...lane, scores: z, absolute: true };
    }
    if (lane.lane === 'lexical' || (lane.lane === 'token' && !params.token)) return lane;
    let scores: ArrayLike<number> = lane.scores;
    let absolute = lane.absolute;
    if (lane.lane === 'semantic' && params.zDepth > 0) {
      const values = sortedScores(lane).slice(0, params.zDepth);
      const mean = values.reduce((a, b) => a + b, 0) / (values.length || 1);
      const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length || 1)) || 1;
      const z = new Float64Array(lane.scores.length);
      for (let i = 0; i < z.length; i++) z[i] = lane.scores[i]! > 0 ? Math.max(0, ((lane.scores[i]! - mean) / sd) * params.zScale) : 0;
      scores = z;
      absolute = true;
    }
    if (matched && params.unmatchedShare !== 1) {
      const copy = Float64Array.from(scores);
      for (let i = 0; i < copy.length; i++) {
        const slot = lane.slots ? lane.slots[i]! : i;
        if (!matched.has(slot)) copy[i] = copy[i]! * params.unmatchedShare;
      }
      scores = copy;
    }
    if (lexical && lane.lane === 'semantic' && params.gate < 1) {
      let best = 0;
      for (let i = 0; i < lexical.scores.length; i++) best = Math.max(best, lexical.scores[i]!);
      const lex = new Float64Array(lane.scores.length);
      if (best > 0) for (let i = 0; i < lexical.scores.length; i++) {
        const slot = lexical.slots ? lexical.slots[i]! : i;
        if (slot >= 0 && slot < lex.length) lex[slot] = lexical.scores[i]! / best;
      }
      const copy = Float64Array.from(scores);
      for (let i = 0; i < copy.length; i++) copy[i] = copy[i]! * (params.gate + (1 - params.gate) * lex[i]!);
      scores = copy;
    }
    return { ...lane, weight: lane.weight * factor, scores, absolute };
  });
}
