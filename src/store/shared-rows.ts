import type { SearchIndex } from '../search/types.js';

/** A page's newest version as a shared store holds it: `content` null for a page deleted. */
export interface SharedRow {
  content: string | null;
  hash: string | null;
  /** The visibility the row was written with; a reader applies it when stricter than the text's own. */
  visibility: string | null;
}

/**
 * The pages a store shared by many replicas holds (the database, `store.kind: postgres`),
 * which a replica serves beside its checkout: a page written on another machine before this
 * one pulls it, a newer version of a page it holds, a deletion it has not pulled.
 */
export interface SharedRows {
  /** Moves whenever a row changes: a reader re-reads the rows only then. */
  readonly rowsVersion: number;
  /** Every path that has a row, deleted ones included. */
  rowPaths(): Iterable<string>;
  rowAt(pagePath: string): SharedRow | undefined;
}

/** The shared rows behind a search index, or undefined for the file index (its checkout is all there is). */
export function sharedRowsOf(index: SearchIndex | undefined): SharedRows | undefined {
  return index !== undefined && 'rowAt' in index && 'rowPaths' in index ? (index as unknown as SharedRows) : undefined;
}
