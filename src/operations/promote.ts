import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { acquireLock } from '../state/lock.js';
import { scopeOf, USER_SCOPE_ROOT } from '../wiki/access.js';
import type { Schema } from '../wiki/contract.js';
import { PageIndex } from '../wiki/page-index.js';
import { loadPages } from '../wiki/pages.js';
import type { Finding } from '../wiki/validate/finding.js';
import { validateWrite } from '../wiki/validate-write.js';

export interface PromoteReport {
  key: string;
  from: string;
  to: string;
  /** True when a team page at `to` was replaced by the scratch page. */
  replaced: boolean;
  warnings: Finding[];
}

/**
 * `wiki promote KEY`: move `user`'s scratch page with KEY out of wiki/user/<name>/ into the
 * team's folders, at the same place relative to the wiki. It is validated as the team's
 * page before anything moves (links, fields, a key unique among the team's pages); a
 * refusal names every problem and changes nothing.
 */
export async function promotePage(root: string, schema: Schema, user: string | undefined, key: string): Promise<PromoteReport> {
  if (user === undefined) throw new UsageError('promote moves one of your scratch pages; say whose', 'pass --user NAME or set WIKI_USER');
  const lock = await acquireLock(root, { command: 'promote', waitSeconds: 0 });
  lock.releaseOnExit();
  try {
    const pages = await loadPages(root, schema.contract);
    const scratch = pages.find((page) => page.key === key && scopeOf(page.path) === user);
    if (!scratch) {
      throw new InputError(`you have no scratch page with the key "${key}"`, `scratch pages live in ${USER_SCOPE_ROOT}${user}/`);
    }
    const to = `wiki/${scratch.path.slice(`${USER_SCOPE_ROOT}${user}/`.length)}`;
    const team = pages.filter((page) => page.path !== scratch.path && scopeOf(page.path) === undefined);
    const clash = team.find((page) => page.key === key && page.path !== to);
    if (clash) throw new InputError(`the team already has a page with the key "${key}" at ${clash.path}`, `rename your scratch page, or move it to ${clash.path.replace(/^wiki\//, `${USER_SCOPE_ROOT}${user}/`)} to replace that page`);
    const content = await readFile(path.join(root, scratch.path), 'utf8');
    const verdict = validateWrite(PageIndex.fromPages(team, schema.contract), { path: to, content }, {
      contract: schema.contract,
      rawExists: (raw) => existsSync(path.join(root, raw.split('#')[0] ?? raw)),
    });
    if (!verdict.ok) {
      const problems = verdict.errors.map((error) => `${error.message}${error.fix ? ` (${error.fix})` : ''}`).join('; ');
      throw new InputError(`${scratch.path} cannot become ${to}: ${problems}`, 'fix the scratch page, then promote it again');
    }
    const replaced = existsSync(path.join(root, to));
    await mkdir(path.dirname(path.join(root, to)), { recursive: true });
    if (replaced) {
      await writeFile(path.join(root, to), content, 'utf8');
      await rm(path.join(root, scratch.path));
    } else {
      await rename(path.join(root, scratch.path), path.join(root, to));
    }
    return { key, from: scratch.path, to, replaced, warnings: verdict.warnings };
  } finally {
    await lock.release();
  }
}
