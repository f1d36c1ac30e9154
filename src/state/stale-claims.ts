import path from 'node:path';
import { z } from 'zod';
import { stateDir } from '../wiki/workspace.js';
import { readStateJson, writeStateJson } from './json-file.js';
import { isPathUnder, isWikiPagePath } from './source-record.js';

/**
 * Claims whose cited lines changed in their source since the page was written: the unit of
 * staleness below the page. A page's `stale_since` means it holds some; a claim is settled
 * when its sentence is rewritten or removed (or re-cited to other lines), never by silence.
 * Kept in `.wiki/stale-claims.json`: rebuilt from the kept source texts when a clone sees
 * the change itself, so two clones come to the same list.
 */
export interface StaleClaim {
  page: string;
  /** The sentence as a reader sees it, and its 1-based line in the page file when marked. */
  sentence: string;
  line: number;
  source: string;
  /** The cited range, as the page still cites it. */
  first: number;
  last: number;
  /** The cited lines' text as the page was written from it. */
  was: string;
  /** What stands in their place now (empty when they were removed), and its lines in the current text. */
  now: string;
  nowFirst?: number;
  nowLast?: number;
  /** YYYY-MM-DD. */
  since: string;
}

const FILE = 'stale-claims.json';

export const claimSchema = z.object({
  page: z.string().refine(isWikiPagePath, 'must be a page under wiki/'),
  sentence: z.string().max(20_000),
  line: z.number().int().positive(),
  source: z.string().refine((source) => isPathUnder(source, 'raw/'), 'must be a source under raw/'),
  first: z.number().int().positive(),
  last: z.number().int().positive(),
  was: z.string().max(200_000),
  now: z.string().max(200_000),
  nowFirst: z.number().int().nonnegative().optional(),
  nowLast: z.number().int().nonnegative().optional(),
  since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
const fileSchema = z.object({ version: z.literal(1), claims: z.array(claimSchema) });

export async function loadStaleClaims(root: string): Promise<StaleClaim[]> {
  const file = await readStateJson(path.join(stateDir(root), FILE), fileSchema, `.wiki/${FILE}`, `delete .wiki/${FILE}: the next ingest of a changed source lists its stale claims again`);
  return file?.claims ?? [];
}

export async function saveStaleClaims(root: string, claims: readonly StaleClaim[]): Promise<void> {
  const sorted = [...claims].sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : a.line - b.line));
  await writeStateJson(path.join(stateDir(root), FILE), { version: 1, claims: sorted });
}

/** The same claim: its page, sentence, source and cited range (its line may have moved). */
export function sameClaim(a: StaleClaim, b: StaleClaim): boolean {
  return a.page === b.page && a.sentence === b.sentence && a.source === b.source && a.first === b.first && a.last === b.last;
}
