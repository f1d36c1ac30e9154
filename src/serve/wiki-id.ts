import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';

/**
 * The wiki's id: what a `wiki serve` token is bound to, so a token made for one wiki is
 * refused by every other wiki's server. It lives in a committed file, `wiki.id`, so every
 * clone and copy of the wiki has the same id (a path would differ per clone, and two wikis
 * can share a path over time). A wiki made before ids existed gets one on first use
 * (`wiki serve token add`), to be committed like schema.md.
 */
export const WIKI_ID_FILE = 'wiki.id';
const ID = /^[A-Za-z0-9][A-Za-z0-9-]{7,63}$/;
const HEADER =
  '# This wiki\'s id. `wiki serve` tokens made for it work on every clone of this wiki and on no other wiki.\n' +
  '# Commit this file; never copy it into another wiki.\n';

/**
 * The id, or undefined when the wiki has none yet. Only a regular file inside the
 * workspace is read: a committed link named wiki.id (pointing anywhere) is refused, so a
 * hostile clone cannot borrow another wiki's id or make the tool read outside the workspace.
 */
export function readWikiId(root: string): string | undefined {
  const file = path.join(root, WIKI_ID_FILE);
  const info = lstatSync(file, { throwIfNoEntry: false });
  if (info === undefined) return undefined;
  if (!info.isFile()) throw notAnIdFile(`${WIKI_ID_FILE} is not a regular file (a link or a folder)`);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw notAnIdFile(`${WIKI_ID_FILE} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile() || opened.size > 4096) throw notAnIdFile(`${WIKI_ID_FILE} is not a wiki id file`);
    const id = readFileSync(fd, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '' && !line.startsWith('#'));
    if (id === undefined || !ID.test(id)) throw notAnIdFile(`${WIKI_ID_FILE} holds no wiki id`);
    return id;
  } finally {
    closeSync(fd);
  }
}

/** The id, made now (and said so through `onMade`) when the wiki has none. Never written through a link. */
export function ensureWikiId(root: string, onMade: (file: string) => void = () => undefined): string {
  const existing = readWikiId(root);
  if (existing !== undefined) return existing;
  const id = randomUUID();
  const file = path.join(root, WIKI_ID_FILE);
  let fd: number;
  try {
    // O_EXCL: never over a file or a link someone put there since it was read.
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readWikiId(root) ?? id;
    throw error;
  }
  try {
    writeSync(fd, `${HEADER}${id}\n`);
  } finally {
    closeSync(fd);
  }
  onMade(file);
  return id;
}

function notAnIdFile(why: string): InputError {
  return new InputError(why, `restore it from git (\`git checkout -- ${WIKI_ID_FILE}\`), or remove it to make a new id: tokens made for the old one stop working`);
}
