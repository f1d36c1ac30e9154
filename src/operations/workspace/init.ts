import { lstat, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../errors.js';
import { isoDate } from '../../util/dates.js';
import { ensureMergeAttributes } from '../../git/attributes.js';
import { displayPath } from '../../util/display-path.js';
import { fileInTheWay, pathExists } from '../../util/fs.js';
import { findWorkspaceRoot } from '../../wiki/workspace.js';
import { packageRoot } from '../../util/package-root.js';
import { exampleFiles, writeExample } from './init-example.js';
import { ConfinedIo } from '../../confine/confined-io.js';

export interface InitResult {
  root: string;
  created: string[];
  overwritten: string[];
}

/** What `wiki init` lays down: workspace-relative target → template file (or a folder). */
const FILES: Array<{ target: string; template: string }> = [
  { target: 'schema.md', template: 'schema.md' },
  { target: 'wiki.config.json', template: 'wiki.config.json' },
  { target: 'wiki/index.md', template: 'index.md' },
  { target: 'wiki/log.md', template: 'log.md' },
  { target: '.gitignore', template: 'gitignore' },
];
const FOLDERS = ['raw', 'wiki/sources', 'wiki/concepts', 'wiki/entities'];

/**
 * Create a workspace in `dir` from templates/. Refuses to touch any existing file unless
 * `force`; the check runs before anything is written, so a refusal writes nothing.
 */
export async function initWorkspace(dir: string, options: { force?: boolean; today?: string; example?: boolean } = {}): Promise<InitResult> {
  const root = path.resolve(dir);
  const file = await fileInTheWay(root);
  if (file !== undefined) {
    throw new InputError(`${displayPath(file)} is a file`, 'nothing was written; give `wiki init` a folder (new or existing)');
  }
  // A workspace inside another would be read by the outer one as pages and sources of its own.
  const enclosing = await findWorkspaceRoot(path.dirname(root));
  if (enclosing !== undefined) {
    throw new InputError(
      `${dir} is inside the workspace ${displayPath(enclosing)} (it holds schema.md)`,
      'nothing was written; a workspace cannot hold another: init it in a folder outside that one',
    );
  }
  const existing: string[] = [];
  const targets = [...FILES.map((f) => f.target), ...(options.example ? await exampleFiles() : [])];
  for (const target of targets) {
    if (await pathExists(path.join(root, target))) existing.push(target);
  }
  if (existing.length > 0 && !options.force) {
    throw new InputError(
      `${path.join(dir, existing[0] ?? '')} already exists${existing.length > 1 ? ` (and ${existing.length - 1} more)` : ''}`,
      'nothing was written; use `wiki init --force` to overwrite the workspace files',
    );
  }
  // A clone's committed links are never written through, nor silently replaced: refused before anything is written.
  const links = await linksOnTheWay(root, [...targets, '.gitattributes', ...FOLDERS]);
  if (links.length > 0) {
    throw new InputError(
      `${path.join(dir, links[0] ?? '')} is a symbolic link${links.length > 1 ? ` (and ${links.length - 1} more: ${links.slice(1).join(', ')})` : ''}`,
      'nothing was written; `wiki init` writes only regular files inside the workspace, never through a link: replace the link with a regular file or folder (or remove it) and run again',
    );
  }
  const today = options.today ?? isoDate();
  const created: string[] = [];
  await mkdir(root, { recursive: true });
  const io = new ConfinedIo(root);
  for (const folder of FOLDERS) {
    if (!(await pathExists(path.join(root, folder)))) created.push(`${folder}/`);
    await io.makeFolder(path.join(root, folder));
  }
  for (const { target, template } of FILES) {
    const text = (await readFile(path.join(packageRoot(), 'templates', template), 'utf8')).replaceAll('{{today}}', today);
    await io.write(path.join(root, target), text);
    if (!existing.includes(target)) created.push(target);
  }
  // Added to, never overwritten: a repository's own attributes stay.
  const hadAttributes = await pathExists(path.join(root, '.gitattributes'));
  if ((await ensureMergeAttributes(root)) && !hadAttributes) created.push('.gitattributes');
  if (options.example) {
    for (const file of await writeExample(root, today)) if (!existing.includes(file)) created.push(file);
  }
  return { root, created, overwritten: existing };
}


/** Each workspace-relative path, or a folder on its way, that is a symbolic link: workspace-relative, once each. */
async function linksOnTheWay(root: string, relativePaths: readonly string[]): Promise<string[]> {
  const links = new Set<string>();
  for (const relative of relativePaths) {
    const parts = relative.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      const info = await lstat(path.join(root, prefix)).catch(() => undefined);
      if (info === undefined) break;
      if (info.isSymbolicLink()) {
        links.add(prefix);
        break;
      }
    }
  }
  return [...links];
}
