import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** `.name.<pid>.<8 hex>.tmp`: an atomic write's temp file (util/fs.ts writeFileAtomic). */
const ATOMIC_TEMP = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Remove temp files that runs killed mid-write left under wiki/ and raw/. Call it holding the
 * workspace lock: only the holder writes there, and only temp files of processes that are
 * gone are touched.
 */
export async function sweepAbandonedTempFiles(root: string): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      const pid = ATOMIC_TEMP.exec(entry.name)?.[1];
      if (entry.isFile() && pid !== undefined && !processAlive(Number(pid))) {
        await rm(path.join(root, child), { force: true });
        removed.push(child);
      }
    }
  };
  for (const folder of ['wiki', 'raw']) await walk(folder);
  return removed;
}

export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

