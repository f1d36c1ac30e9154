/**
 * What one model turn may ask of the tools. A model that asks for thousands of calls, or
 * for more text than a context can hold, gets errors that say so instead of exhausting
 * the machine: calls past the count are not run, results past the byte budget are not
 * returned.
 */
export interface TurnLimits {
  /** Tool calls run per turn; the rest are answered with an error and not run. */
  toolCallsPerTurn: number;
  /** UTF-8 bytes of tool results returned per turn, in call order; later read results are withheld. */
  toolResultBytesPerTurn: number;
  /**
   * search_wiki calls run per turn (each searches the whole wiki, the costliest read); the
   * rest are answered with an error and not run. Absent: only toolCallsPerTurn applies.
   */
  searchesPerTurn?: number;
}

/** The tool whose calls `searchesPerTurn` counts. */
export const SEARCH_TOOL = 'search_wiki';

export const DEFAULT_TURN_LIMITS: TurnLimits = { toolCallsPerTurn: 64, toolResultBytesPerTurn: 512 * 1024, searchesPerTurn: 16 };

/** Read-only calls of one turn run at most this many at once (each may load a file of up to 64 MB). */
export const PARALLEL_TOOL_CALLS = 8;
