import { ConfigError } from '../errors.js';
import { LANES, type LaneName, type LaneStatus } from '../search/types.js';

/**
 * What a search answer says besides its hits, the same for `wiki search`, `wiki query` and
 * every MCP tool: whether anything matched (never a silent empty list) and which lane was
 * dropped, naming its endpoint, while the others answered.
 */
export interface LaneWarning {
  lane: LaneName;
  /** The lane's status: `failed: <reason>`. */
  status: string;
  /** Where the lane's answers come from (the embedder's model and endpoint), when known. */
  endpoint?: string;
  message: string;
}

/** One warning per failed lane; a lane skipped on purpose (weight 0, no embedder) is not one. */
export function laneWarnings(lanes: Record<LaneName, LaneStatus>, embedder?: string): LaneWarning[] {
  return LANES.filter((lane) => lanes[lane].startsWith('failed')).map((lane) => {
    const endpoint = lane === 'semantic' ? embedder : undefined;
    const reason = lanes[lane].replace(/^failed: /, '');
    const where = endpoint ? ` (${endpoint})` : '';
    return {
      lane,
      status: lanes[lane],
      ...(endpoint ? { endpoint } : {}),
      message: `the ${lane} lane${where} failed and was left out: ${reason}`,
    };
  });
}

/**
 * Throws when no lane could answer: an empty list would then say "nothing matches" when
 * the truth is "nothing could look". The error names each lane's state.
 */
export function requireAnsweringLane(lanes: Record<LaneName, LaneStatus>): void {
  if (LANES.some((lane) => lanes[lane] === 'ok')) return;
  const states = LANES.map((lane) => `${lane} ${lanes[lane]}`).join('; ');
  throw new ConfigError(`search failed: no lane could answer (${states})`, 'check the embeddings endpoint and the search settings (wiki config), or rebuild the index by deleting .wiki/search');
}
