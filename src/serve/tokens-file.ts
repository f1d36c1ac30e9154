import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { acquireLockFile } from '../state/lock.js';
import { Mutex } from '../util/mutex.js';
import { TOKENS_ENV } from './tokens-path.js';

/** How long a `token add` or `remove` waits for another one to finish with the file. */
const LOCK_WAIT_SECONDS = 30;

/**
 * Where the tokens file really is: a link is followed (also one whose target is missing),
 * so a tokens file is judged by the file a write or read would reach, not by its name.
 */
export function realTokensPath(file: string): string {
  let current = path.resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    const folder = realFolder(path.dirname(current));
    const here = path.join(folder, path.basename(current));
    const info = lstatSync(here, { throwIfNoEntry: false });
    if (!info?.isSymbolicLink()) return here;
    current = path.resolve(folder, readlinkSync(here));
  }
  throw new UsageError(`the tokens file ${file} is a loop of links`, 'point --tokens at a regular file');
}

/** Refuse a tokens file inside the workspace (through a link too), where the model could read it and git could commit it. */
export function requireOutsideWorkspace(file: string, root: string): void {
  const realRoot = realpathSync(root);
  const where = realTokensPath(file);
  const relative = path.relative(realRoot, where);
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
    throw new UsageError(`the tokens file ${file} is inside the workspace`, `keep it outside (the model reads the workspace): e.g. --tokens ~/.config/wiki/serve-tokens.json or ${TOKENS_ENV}`);
  }
}

/**
 * Refuse a tokens file that someone else could have written: the file itself writable by
 * all, or any folder on its way writable by all, unless that folder is sticky and owned by
 * root or by us (the temp folder): there, no one can rename or replace what they do not own.
 */
export function requireOwnersOnly(file: string): void {
  const where = realTokensPath(file);
  const info = statSync(where, { throwIfNoEntry: false });
  if (info && (info.mode & 0o002) !== 0) {
    throw new UsageError(`the tokens file ${file} can be written by every user of this machine, so a token in it may have been planted`, `check its tokens with \`wiki serve token list\`, then \`chmod 600 ${file}\``);
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  for (let folder = path.dirname(where); ; folder = path.dirname(folder)) {
    const dir = statSync(folder, { throwIfNoEntry: false });
    if (dir && (dir.mode & 0o002) !== 0) {
      const sticky = (dir.mode & 0o1000) !== 0;
      if (!sticky || (dir.uid !== 0 && dir.uid !== uid)) {
        throw new UsageError(`the tokens file ${file} is in ${folder}, a folder every user of this machine can write, so the file may have been replaced`, 'keep it in a folder of your own, e.g. ~/.config/wiki/serve-tokens.json');
      }
    }
    if (path.dirname(folder) === folder) return;
  }
}

/** One change at a time within this process; the lock file orders processes (it tells them apart by pid). */
const inProcess = new Mutex();

/** Run `change` holding the lock beside the tokens file, so concurrent adds and removes never lose one another's record. */
export function withTokensLock<T>(file: string, command: string, change: () => Promise<T>): Promise<T> {
  return inProcess.run(async () => {
    const lock = await acquireLockFile(`${realTokensPath(file)}.lock`, { command, waitSeconds: LOCK_WAIT_SECONDS });
    lock.releaseOnExit();
    try {
      return await change();
    } finally {
      await lock.release();
    }
  });
}

function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    const parent = path.dirname(folder);
    return parent === folder ? folder : path.join(realFolder(parent), path.basename(folder));
  }
}
