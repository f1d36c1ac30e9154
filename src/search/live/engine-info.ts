import type { SearchEngine, SearchParams } from '../engine.js';
import type { LaneStatus, SearchIndexInfo } from '../types.js';

/** What an index reports of the engine it ranks with, whichever store holds it (file or database): pages, each lane's state, the embedder. */
export function engineInfo(engine: SearchEngine, params: SearchParams): Pick<SearchIndexInfo, 'pages' | 'lanes' | 'embedder'> {
  const { weights } = params;
  const semantic = engine.semantic;
  const weighted = (lane: keyof typeof weights, status: LaneStatus): LaneStatus => (weights[lane] > 0 ? status : 'skipped: weight is 0');
  return {
    pages: engine.docs.liveCount,
    lanes: {
      lexical: weighted('lexical', 'ok'),
      semantic: weighted('semantic', 'lane' in semantic ? semantic.lane.status() : `skipped: ${semantic.off}`),
      token: weighted('token', 'ok'),
    },
    embedder: 'lane' in semantic ? semantic.lane.embedder.description : undefined,
  };
}
