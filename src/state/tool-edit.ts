import path from 'node:path';
import { ConfinedIo, type WritePlace } from '../confine/confined-io.js';
import { hashText } from './hash.js';
import { recordAfter, recordBefore, type Run } from './history.js';
import { lastWritten, setWrittenEntry } from './written.js';

/**
 * A deterministic edit the tool makes to a page outside any model write (a stale mark, a
 * citation moved with its source): written confined to `place`, recorded for undo, and a
 * page last written by hand stays the hand's (its human lines stay protected).
 */
export async function writeToolEdit(root: string, place: WritePlace, pagePath: string, before: string, after: string, run?: Run): Promise<void> {
  const io = new ConfinedIo(root, { place });
  const target = path.join(root, ...pagePath.split('/'));
  const previous = await lastWritten(root, pagePath);
  const wasOurs = previous !== undefined && previous.sha256 === hashText(before);
  if (run) await recordBefore(run, pagePath, before);
  await io.write(target, after);
  if (run) await recordAfter(run, pagePath, after, wasOurs ? {} : { written: previous ?? null });
  else if (wasOurs) await setWrittenEntry(root, pagePath, { ...previous, sha256: hashText(after), writtenAt: new Date().toISOString() }, after);
}
