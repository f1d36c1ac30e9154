import { existsSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makePdf } from '../helpers/pdf-fixture.js';
import { fakeServers, freshWorkspace, patchConfig, simpleIngest } from './cron-fixtures.js';

/**
 * Sources that are small on disk and costly to read: HTML nested thousands of levels deep
 * (quadratic for the HTML reader, a stack overflow past a few thousand), a PDF whose
 * streams inflate far past its size, a PDF of too many pages, a link that leads back up
 * the folder being walked. Each is skipped with a reason before the costly work; the others
 * go on. Low limits set in wiki.config.json keep the inputs small.
 */
const serve = fakeServers();
const nested = (levels: number): string => `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(levels)}<p>At the bottom.</p>${'</div>'.repeat(levels)}</body></html>`;

async function hostileRaw(): Promise<string> {
  const root = await freshWorkspace();
  await patchConfig(root, { limits: { htmlDepth: 40, pdfInflatedBytes: 64 * 1024, pdfPages: 3 } });
  await writeFile(path.join(root, 'raw/good.md'), '# Good\n\nAn ordinary source about okapis.\n');
  await writeFile(path.join(root, 'raw/shallow.html'), nested(10).replace('At the bottom.', 'A shallow page about giraffes, well within the limit.'));
  await writeFile(path.join(root, 'raw/deep.html'), nested(60));
  await writeFile(path.join(root, 'raw/abyss.html'), nested(10_000));
  await writeFile(path.join(root, 'raw/bomb.pdf'), makePdf([['A small file.']], { inflatedPadding: 1024 * 1024 }));
  await writeFile(path.join(root, 'raw/long.pdf'), makePdf([['one'], ['two'], ['three'], ['four']]));
  await symlink('.', path.join(root, 'raw/loop'));
  return root;
}

const REASONS: Record<string, RegExp> = {
  'raw/deep.html': /nests its elements 6\d levels deep, over the 40 allowed \(limits\.htmlDepth in wiki\.config\.json\)/,
  'raw/abyss.html': /nests its elements 100\d\d levels deep, over the 40 allowed/,
  'raw/bomb.pdf': /inflates to more than 64 KB of content \(limits\.pdfInflatedBytes in wiki\.config\.json\)/,
  'raw/long.pdf': /has 4 pages, over the 3 allowed \(limits\.pdfPages in wiki\.config\.json\)/,
  'raw/loop': /raw\/loop is a link to a folder; links to folders are not followed/,
};

describe.each(['anthropic', 'openai'] as const)('wiki ingest raw/ with hostile sources beside good ones (%s)', (api) => {
  it('skips each hostile source with its reason; the good ones are ingested', async () => {
    const root = await hostileRaw();
    const server = await serve((request) => {
      const text = request.lastUserText ?? '';
      const key = text.includes('raw/shallow.html') ? 'shallow' : 'good';
      return request.toolResults.length > 0 ? { text: 'Done.' } : simpleIngest(key, { sources: [`raw/${key === 'shallow' ? 'shallow.html' : 'good.md'}`] })[0]!;
    });
    const result = await runCli(['ingest', 'raw/', '--json'], { cwd: root, env: server.env(api) });
    expect(result.stderr).not.toMatch(/unexpected|Maximum call stack/);
    expect(result.code).toBe(1); // something was skipped
    const report = JSON.parse(result.stdout) as { ingested: { source: string; status: string }[]; skipped: { source: string; reason: string }[] };
    expect(report.ingested.map((i) => [i.source, i.status]).sort()).toEqual([
      ['raw/good.md', 'done'],
      ['raw/shallow.html', 'done'],
    ]);
    expect(report.skipped.map((s) => s.source).sort()).toEqual(Object.keys(REASONS).sort());
    for (const skipped of report.skipped) expect(skipped.reason).toMatch(REASONS[skipped.source]!);
    expect(existsSync(path.join(root, 'wiki/sources/good.md'))).toBe(true);
  });
});

describe('the same sources elsewhere', () => {
  it('ingest --dry-run ends (the link back up is not followed) and says what it would skip', async () => {
    const root = await hostileRaw();
    const server = await serve(() => ({ text: 'Nothing to do.' }));
    const result = await runCli(['ingest', 'raw/', '--dry-run', '--json'], { cwd: root, env: server.env('anthropic') });
    const report = JSON.parse(result.stdout) as { skipped: { source: string }[] };
    expect(report.skipped.map((s) => s.source).sort()).toEqual(Object.keys(REASONS).sort());
  });

  it('facts rebuild lists them as unreadable and extracts the others', async () => {
    const root = await hostileRaw();
    const result = await runCli(['facts', 'rebuild', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { sources: { extracted: number; unreadable: string[] } };
    expect(report.sources.unreadable.sort()).toEqual(['raw/abyss.html', 'raw/bomb.pdf', 'raw/deep.html', 'raw/long.pdf']);
    expect(report.sources.extracted).toBe(2);
  });

  it('with the default limits, an ordinary PDF and HTML page are read as before', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/paper.pdf'), makePdf([['Okapis live in forests.'], ['They are shy.']], { inflatedPadding: 1000 }));
    await writeFile(path.join(root, 'raw/page.html'), nested(30).replace('At the bottom.', 'Giraffes are tall and live on savannas across Africa.'));
    const result = await runCli(['facts', 'rebuild', '--json'], { cwd: root });
    const report = JSON.parse(result.stdout) as { sources: { extracted: number; unreadable: string[] } };
    expect(report.sources).toMatchObject({ extracted: 2, unreadable: [] });
  });
});
