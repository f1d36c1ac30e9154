import { readFile, readdir, stat } from 'node:fs/promises';
import { ConfinedIo } from '../../confine/confined-io.js';
import path from 'node:path';
import { loadConfig } from '../../config/load.js';
import { hashFile, loadManifest, recordIngest, saveManifest } from '../../state/manifest.js';
import { sourcesOf, stringField } from '../../wiki/frontmatter-fields.js';
import { regenerateIndex } from '../../wiki/index-catalog.js';
import { appendLog } from '../../wiki/log.js';
import { loadPages } from '../../wiki/pages.js';
import { loadSchema } from '../../wiki/schema-loader.js';
import { packageRoot } from '../../util/package-root.js';

/**
 * `wiki init --example`: a few short self-written sources in raw/ and the pages a good ingest
 * makes of them (templates/example/), so every command that needs no model has something to
 * show. The index, log and source manifest are then written by the same code an ingest uses,
 * so they read exactly as the tool writes them and `wiki ingest raw/` finds nothing new.
 */
const EXAMPLE_RUN_ID = 'example';

function exampleDir(): string {
  return path.join(packageRoot(), 'templates', 'example');
}

/** Workspace-relative paths of the example's files (raw/… and wiki/…), sorted. */
export async function exampleFiles(): Promise<string[]> {
  const entries = await readdir(exampleDir(), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(exampleDir(), path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** Write the example into an initialised workspace at `root`; returns the files written. */
export async function writeExample(root: string, today: string): Promise<string[]> {
  const files = await exampleFiles();
  for (const file of files) {
    const text = (await readFile(path.join(exampleDir(), file), 'utf8')).replaceAll('{{today}}', today);
    await new ConfinedIo(root).write(path.join(root, file), text);
  }
  const schema = await loadSchema(root);
  const { config } = await loadConfig(root);
  await regenerateIndex(root, schema, config);
  const pages = (await loadPages(root, schema.contract)).filter((p) => p.type !== undefined && p.path !== schema.contract.index && p.path !== schema.contract.log);
  let manifest = await loadManifest(root);
  const written = new Set<string>();
  for (const [n, source] of files.filter((file) => file.startsWith('raw/')).entries()) {
    const drawing = pages.filter((p) => sourcesOf(p.frontmatter).includes(source));
    const sourcePage = drawing.find((p) => p.type === 'source');
    // In ingest order, a page an earlier source already made is updated, not created.
    const created = drawing.map((p) => p.path).filter((p) => !written.has(p)).sort();
    const updated = drawing.map((p) => p.path).filter((p) => written.has(p)).sort();
    for (const page of created) written.add(page);
    await appendLog(root, schema.contract.log, 'ingest', (sourcePage && stringField(sourcePage.frontmatter, 'title')) ?? source, [
      `source: ${source}`,
      `created: ${created.join(', ')}`,
      ...(updated.length > 0 ? [`updated: ${updated.join(', ')}`] : []),
      'written by `wiki init --example`, no model run',
    ], today, `${EXAMPLE_RUN_ID}-${n + 1}`);
    const seenAt = Date.now();
    const sha256 = await hashFile(path.join(root, source));
    const info = await stat(path.join(root, source));
    manifest = recordIngest(manifest, source, {
      sha256,
      size: info.size,
      mtimeMs: info.mtimeMs,
      seenAt,
      ingestedAt: new Date().toISOString(),
      runId: EXAMPLE_RUN_ID,
      pages: { created, updated },
    });
  }
  await saveManifest(root, manifest);
  return files;
}
