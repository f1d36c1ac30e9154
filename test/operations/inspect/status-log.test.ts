import { mkdtemp, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { initWorkspace } from '../../../src/operations/workspace/init.js';
import { workspaceStatus } from '../../../src/operations/inspect/status.js';
import { loadSchema } from '../../../src/wiki/schema-loader.js';

/** `wiki status` shows the log's last entries, read as every page is: never through a link. */
const SECRET = 'outside-the-workspace-secret';
const OUTSIDE_LOG = `# Log\n\n## [2026-11-20] ingest | ${SECRET}\n\n- a line\n`;

async function statusLog(arrange: (root: string, outside: string) => Promise<void>): Promise<string> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'wiki-status-log-'));
  const root = path.join(parent, 'ws');
  const outside = path.join(parent, 'outside.md');
  await initWorkspace(root, { today: '2026-11-21' });
  await writeFile(outside, OUTSIDE_LOG);
  await arrange(root, outside);
  const report = await workspaceStatus(root, await loadSchema(root), await loadConfig(root, { env: {} }));
  return JSON.stringify(report.recentLog);
}

describe('workspaceStatus recentLog', () => {
  it('lists the log page’s own entries', async () => {
    const shown = await statusLog(async (root) => writeFile(path.join(root, 'wiki/log.md'), OUTSIDE_LOG.replace(SECRET, 'inside entry')));
    expect(shown).toContain('inside entry');
  });

  it.each([
    ['the log page swapped for a link to a file outside', async (root: string, outside: string) => {
      await rename(path.join(root, 'wiki/log.md'), path.join(root, 'wiki/log-moved.md'));
      await symlink(outside, path.join(root, 'wiki/log.md'));
    }],
    ['the wiki folder swapped for a link to a folder outside holding a log', async (root: string, outside: string) => {
      const elsewhere = path.join(path.dirname(outside), 'elsewhere');
      await rename(path.join(root, 'wiki'), elsewhere);
      await writeFile(path.join(elsewhere, 'log.md'), await readFile(outside));
      await symlink(elsewhere, path.join(root, 'wiki'));
    }],
  ])('shows nothing from %s', async (_name, arrange) => {
    expect(await statusLog(arrange)).not.toContain(SECRET);
  });
});
