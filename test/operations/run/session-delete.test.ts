import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { renameSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { SandboxError } from '../../../src/errors.js';
import { initWorkspace } from '../../../src/operations/workspace/init.js';
import { Session } from '../../../src/operations/run/session.js';
import { DiskFs } from '../../../src/tools/workspace-fs.js';
import { loadSchema } from '../../../src/wiki/schema-loader.js';

/**
 * A run deletes a generated file (a hub spoke no longer needed) after reading it for undo.
 * A folder swapped for a link between that read and the removal must not carry the removal
 * outside the workspace.
 */
const SPOKE = 'wiki/hub/concepts.md';
const OUTSIDE_TEXT = 'outside-the-workspace, never to be removed\n';

async function openSession(): Promise<{ session: Session; root: string; outside: string }> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'wiki-session-delete-'));
  const root = path.join(parent, 'ws');
  const outside = path.join(parent, 'outside');
  await initWorkspace(root, { today: '2026-11-21' });
  await mkdir(path.join(root, 'wiki/hub'), { recursive: true });
  await writeFile(path.join(root, SPOKE), '# Concepts\n');
  await mkdir(outside);
  await writeFile(path.join(outside, 'concepts.md'), OUTSIDE_TEXT);
  const ws = { root, schema: await loadSchema(root), config: await loadConfig(root, { env: {} }) };
  const session = await Session.open(ws, { op: 'lint', title: 'repair', runId: 'run-delete', dryRun: false, readOnly: false, env: {} });
  return { session, root, outside };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Session.deleteFile', () => {
  it('removes the file inside the workspace', async () => {
    const { session, root } = await openSession();
    expect(await session.deleteFile(SPOKE)).toBe(true);
    await expect(readFile(path.join(root, SPOKE))).rejects.toMatchObject({ code: 'ENOENT' });
    await session.finish('completed');
  });

  it('removes nothing outside when the folder is swapped for a link after the read', async () => {
    const { session, root, outside } = await openSession();
    const read = DiskFs.prototype.readText;
    vi.spyOn(DiskFs.prototype, 'readText').mockImplementation(async function (this: DiskFs, absolute: string) {
      const text = await read.call(this, absolute);
      if (absolute.endsWith(SPOKE)) {
        renameSync(path.join(root, 'wiki/hub'), path.join(root, 'wiki/hub-moved'));
        symlinkSync(outside, path.join(root, 'wiki/hub'));
      }
      return text;
    });
    await expect(session.deleteFile(SPOKE)).rejects.toBeInstanceOf(SandboxError);
    expect(await readFile(path.join(outside, 'concepts.md'), 'utf8')).toBe(OUTSIDE_TEXT);
    await session.finish('stopped');
  });
});
