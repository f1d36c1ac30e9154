import { removeAbandonedTempFiles } from '../../util/fs.js';

/** Temp files that runs killed mid-write left under wiki/ and raw/; call holding the lock. */
export function sweepAbandonedTempFiles(root: string): Promise<string[]> {
  return removeAbandonedTempFiles(root, ['wiki', 'raw']);
}
