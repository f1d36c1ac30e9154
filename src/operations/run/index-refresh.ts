import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { WriteChange } from '../../tools/context.js';
import { packageRoot } from '../../util/package-root.js';
import { spokePagePath, type Contract } from '../../wiki/contract.js';
import { planIndex, type IndexFiles } from '../../wiki/index-catalog.js';
import type { PageIndex } from '../../wiki/page-index.js';

/** What regenerating index.md needs from a run: the pages as they stand, and its recorded file I/O. */
export interface IndexTarget {
  contract: Contract;
  hubThreshold: number;
  pages: PageIndex;
  readIfExists(relPath: string): Promise<string | undefined>;
  writeFile(relPath: string, content: string): Promise<WriteChange | undefined>;
  deleteFile(relPath: string): Promise<boolean>;
}

/** Regenerate index.md's catalog (and hub spokes) from the pages as they now stand; returns the files touched. */
export async function refreshIndexFiles(target: IndexTarget): Promise<string[]> {
  const { contract } = target;
  const files: IndexFiles = {
    indexText: await target.readIfExists(contract.index),
    fallbackIndexText: await readFile(path.join(packageRoot(), 'templates', 'index.md'), 'utf8'),
    spokeTexts: new Map(),
  };
  for (const type of Object.keys(contract.types)) {
    const spoke = spokePagePath(contract, type);
    const text = await target.readIfExists(spoke);
    if (text !== undefined) files.spokeTexts.set(spoke, text);
  }
  const plan = planIndex({ pages: target.pages.pages(), contract, hubThreshold: target.hubThreshold }, files);
  const touched: string[] = [];
  for (const write of plan.writes) {
    if (await target.writeFile(write.path, write.content)) touched.push(write.path);
  }
  for (const stale of plan.deletes) {
    if (await target.deleteFile(stale)) touched.push(stale);
  }
  return touched;
}
