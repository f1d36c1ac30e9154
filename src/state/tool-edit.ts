import path from 'node:path';
import { ConfinedIo, type WritePlace } from '../confine/confined-io.js';
import { hashText } from './hash.js';
import { recordAfter, recordBefore, type Run } from './history.js';
import { lastWritten, setWrittenEntry, type WrittenEntry } from './written.js';
import { keepWrittenCopy } from './written-copies.js';

/**
 * A deterministic edit the tool makes to a page outside any model write (a stale mark, a
 * citation moved with its source): written confined to `place`, recorded for undo, and a
 * page last written by hand stays the hand's (its human lines stay protected).
 * `ownCopyAfter`: for a page edited by hand, the tool's own last copy with the same edit made
 * — kept as what the tool wrote, so the tool's edit is not taken for the hand's later (a
 * citation it moved, read as one a person renumbered).
 */
export async function writeToolEdit(root: string, place: WritePlace, pagePath: string, before: string, after: string, run?: Run, ownCopyAfter?: string): Promise<void> {
  const io = new ConfinedIo(root, { place });
  const target = path.join(root, ...pagePath.split('/'));
  const previous = await lastWritten(root, pagePath);
  const wasOurs = previous !== undefined && previous.sha256 === hashText(before);
  let handsPage: WrittenEntry | null = previous ?? null;
  if (!wasOurs && previous !== undefined && ownCopyAfter !== undefined && ownCopyAfter !== after) {
    await keepWrittenCopy(root, ownCopyAfter);
    handsPage = { ...previous, sha256: hashText(ownCopyAfter) };
  }
  if (run) await recordBefore(run, pagePath, before);
  await io.write(target, after);
  if (run) await recordAfter(run, pagePath, after, wasOurs ? {} : { written: handsPage });
  else if (wasOurs) await setWrittenEntry(root, pagePath, { ...previous, sha256: hashText(after), writtenAt: new Date().toISOString() }, after);
  else if (handsPage !== previous) await setWrittenEntry(root, pagePath, handsPage);
}
