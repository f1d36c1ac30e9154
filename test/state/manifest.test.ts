import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { beginRun, loadRun, readBeforeImage, recordAfter, recordBefore } from '../../src/state/history.js';
import { humanEditedPaths } from '../../src/state/human-edits.js';
import {
  classifySource,
  deletedSources,
  emptyManifest,
  forgetSource,
  hashFile,
  LEGACY_MANIFEST_PATH,
  loadManifest,
  markStale,
  MANIFEST_PATH,
  pagesToMarkStale,
  recordIngest,
  saveManifest,
  type Manifest,
  type SourceEntry,
} from '../../src/state/manifest.js';
import { parsePage, splitFrontmatter } from '../../src/wiki/page.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../helpers/cli.js';

const execFileAsync = promisify(execFile);

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

function entry(sha256: string, created: string[] = [], updated: string[] = []): SourceEntry {
  return { sha256, size: 10, ingestedAt: '2026-01-21T10:00:00.000Z', runId: 'run-1', pages: { created, updated } };
}

const manifest: Manifest = {
  version: 1,
  sources: {
    'raw/paper.md': entry(SHA_A, ['wiki/sources/paper.md'], ['wiki/concepts/attention.md']),
    'raw/notes.txt': entry(SHA_B, ['wiki/sources/notes.md']),
  },
};
const contract = parseSchema(readFileSync(path.join(REPO_ROOT, 'templates/schema.md'), 'utf8')).contract;

async function tempRoot(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'wiki-manifest-'));
}

async function write(root: string, relPath: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relPath)), { recursive: true });
  await writeFile(path.join(root, relPath), content);
}

describe('classifySource', () => {
  it.each([
    ['raw/new.md', SHA_A, 'new'],
    ['raw/paper.md', SHA_A, 'unchanged'],
    ['raw/paper.md', SHA_B, 'changed'],
    ['raw/notes.txt', SHA_B, 'unchanged'],
  ] as const)('%s with %s… is %s', (relPath, sha, expected) => {
    expect(classifySource(manifest, relPath, sha)).toBe(expected);
  });
});

describe('recordIngest and forgetSource', () => {
  it('return a new manifest and leave the old one as it was', () => {
    const next = recordIngest(manifest, 'raw/new.md', entry(SHA_B, ['wiki/b.md', 'wiki/a.md', 'wiki/a.md'], []));
    expect(next.sources['raw/new.md']?.pages.created).toEqual(['wiki/a.md', 'wiki/b.md']);
    expect(classifySource(next, 'raw/new.md', SHA_B)).toBe('unchanged');
    expect(manifest.sources['raw/new.md']).toBeUndefined();
    const replaced = recordIngest(next, 'raw/paper.md', entry(SHA_B));
    expect(classifySource(replaced, 'raw/paper.md', SHA_B)).toBe('unchanged');
    const forgotten = forgetSource(replaced, 'raw/paper.md');
    expect(Object.keys(forgotten.sources).sort()).toEqual(['raw/new.md', 'raw/notes.txt']);
    expect(replaced.sources['raw/paper.md']).toBeDefined();
  });

  it('refuses a source path outside the workspace', () => {
    expect(() => recordIngest(manifest, '../outside.md', entry(SHA_A))).toThrow(/not a workspace-relative path/);
  });
});

describe('deletedSources', () => {
  it.each([
    [['raw/paper.md', 'raw/notes.txt'], []],
    [['raw/paper.md'], ['raw/notes.txt']],
    [['raw/other.md'], ['raw/notes.txt', 'raw/paper.md']],
    [[], ['raw/notes.txt', 'raw/paper.md']],
  ])('existing %j → deleted %j', (existing, expected) => {
    expect(deletedSources(manifest, existing)).toEqual(expected);
  });
});

describe('pagesToMarkStale', () => {
  it.each([
    {
      name: 'changed source, nothing rewritten: its pages and every page citing it',
      source: 'raw/paper.md',
      rewritten: [],
      citing: ['wiki/entities/vaswani.md', 'wiki/concepts/attention.md'],
      expected: ['wiki/concepts/attention.md', 'wiki/entities/vaswani.md', 'wiki/sources/paper.md'],
    },
    {
      name: 'pages the run rewrote are not stale',
      source: 'raw/paper.md',
      rewritten: ['wiki/sources/paper.md', 'wiki/entities/vaswani.md'],
      citing: ['wiki/entities/vaswani.md'],
      expected: ['wiki/concepts/attention.md'],
    },
    {
      name: 'deleted source: everything it produced',
      source: 'raw/notes.txt',
      rewritten: [],
      citing: [],
      expected: ['wiki/sources/notes.md'],
    },
    {
      name: 'a source unknown to the manifest: only the citing pages',
      source: 'raw/unknown.md',
      rewritten: ['wiki/x.md'],
      citing: ['wiki/y.md', 'wiki/x.md'],
      expected: ['wiki/y.md'],
    },
  ])('$name', ({ source, rewritten, citing, expected }) => {
    expect(pagesToMarkStale(manifest, source, rewritten, citing, contract)).toEqual(expected);
  });

  it('of the pages a crafted record names, marks only page files of a page folder (never log.md, index.md, a spoke)', () => {
    const crafted: Manifest = {
      version: 1,
      sources: { 'raw/crafted.md': entry(SHA_B, ['wiki/log.md', 'wiki/index.md', 'wiki/index-concept.md', 'wiki/concepts/real.md', 'wiki/user/alice/notes.md', 'wiki/user/alice/concepts/idea.md']) },
    };
    expect(pagesToMarkStale(crafted, 'raw/crafted.md', [], [], contract)).toEqual(['wiki/concepts/real.md', 'wiki/user/alice/concepts/idea.md']);
  });
});

describe('loadManifest and saveManifest', () => {
  it('reads an empty manifest when there is none, and round-trips what was saved as one sorted line per source', async () => {
    const root = await tempRoot();
    expect(await loadManifest(root)).toEqual(emptyManifest());
    await saveManifest(root, manifest);
    expect(await loadManifest(root)).toEqual(manifest);
    const lines = (await readFile(path.join(root, MANIFEST_PATH), 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { path: string }).path)).toEqual(['raw/notes.txt', 'raw/paper.md']);
  });

  it('keeps the file stamps of this machine out of the committed record, and gives them back only for the same content', async () => {
    const root = await tempRoot();
    const stamped = recordIngest(emptyManifest(), 'raw/paper.md', { ...entry(SHA_A), mtimeMs: 1234, seenAt: 5678 });
    await saveManifest(root, stamped);
    expect(await readFile(path.join(root, MANIFEST_PATH), 'utf8')).not.toMatch(/1234|5678|mtime/);
    expect((await loadManifest(root)).sources['raw/paper.md']).toMatchObject({ mtimeMs: 1234, seenAt: 5678 });
    // A teammate's record for other content (after a pull): the local stamp vouches for nothing.
    await writeFile(path.join(root, MANIFEST_PATH), `${JSON.stringify({ path: 'raw/paper.md', sha256: SHA_B, size: 10, ingestedAt: '2026-01-22T10:00:00.000Z', runId: 'run-2', created: [], updated: [] })}\n`);
    expect((await loadManifest(root)).sources['raw/paper.md']).not.toHaveProperty('mtimeMs');
  });

  it('migrates a workspace whose manifest is the old .wiki/sources.json: the record is written, the old file set aside', async () => {
    const root = await tempRoot();
    await write(root, LEGACY_MANIFEST_PATH, JSON.stringify(manifest));
    expect(await loadManifest(root, { migrate: false })).toEqual(manifest);
    await expect(readFile(path.join(root, MANIFEST_PATH), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(await loadManifest(root)).toEqual(manifest);
    expect(await loadManifest(root)).toEqual(manifest);
    await expect(readFile(path.join(root, LEGACY_MANIFEST_PATH), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(root, `${LEGACY_MANIFEST_PATH}.migrated`), 'utf8')).toBe(JSON.stringify(manifest));
    expect(await readFile(path.join(root, '.gitattributes'), 'utf8')).toMatch(/^wiki\.sources\.jsonl merge=union$/m);
  });

  it.each([
    ['not JSON', '{', /not valid JSON/],
    ['a wrong sha', JSON.stringify({ version: 1, sources: { 'raw/a.md': { ...entry('xyz') } } }), /sources\.raw\/a\.md\.sha256/],
    ['an unknown version', JSON.stringify({ version: 2, sources: {} }), /version/],
  ])('reports an old manifest that is %s as a configuration error', async (_case, text, message) => {
    const root = await tempRoot();
    await write(root, LEGACY_MANIFEST_PATH, text);
    const error = await loadManifest(root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(message);
    expect((error as ConfigError).hint).toMatch(/delete it/);
  });

  it('refuses to migrate an old manifest naming a path outside raw/', async () => {
    const root = await tempRoot();
    await write(root, LEGACY_MANIFEST_PATH, JSON.stringify({ version: 1, sources: { 'wiki/index.md': entry(SHA_A) } }));
    await expect(loadManifest(root)).rejects.toThrow(/source path under raw\//);
    await expect(readFile(path.join(root, MANIFEST_PATH), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('never writes a record its reader would refuse', async () => {
    const root = await tempRoot();
    await saveManifest(root, manifest);
    const before = await readFile(path.join(root, MANIFEST_PATH), 'utf8');
    await expect(saveManifest(root, recordIngest(manifest, 'schema.md', entry(SHA_A)))).rejects.toThrow(/source path under raw\//);
    expect(await readFile(path.join(root, MANIFEST_PATH), 'utf8')).toBe(before);
  });

  it('with a run, keeps the previous record as a before-image so undo forgets the ingest', async () => {
    const root = await tempRoot();
    const run = await beginRun(root, 'run-1', 'ingest', 'paper');
    await saveManifest(root, manifest, run);
    const next = recordIngest(manifest, 'raw/new.md', entry(SHA_B));
    await saveManifest(root, next, run);
    const record = await loadRun(root, 'run-1');
    expect(record?.files).toEqual([
      expect.objectContaining({ path: MANIFEST_PATH, existedBefore: false, afterSha256: expect.any(String) as unknown }),
    ]);
    const second = await beginRun(root, 'run-2', 'ingest', 'other');
    await saveManifest(root, emptyManifest(), second);
    const before = (await readBeforeImage(root, 'run-2', MANIFEST_PATH))?.toString('utf8') ?? '';
    expect(before.trimEnd().split('\n').map((line) => (JSON.parse(line) as { path: string }).path)).toEqual(Object.keys(next.sources).sort());
  });
});

describe('hashFile', () => {
  it('streams a multi-chunk file to the same sha256 as hashing it whole', async () => {
    const root = await tempRoot();
    const content = Buffer.alloc(3 * 1024 * 1024 + 17, 'abc\n');
    await writeFile(path.join(root, 'big.txt'), content);
    expect(await hashFile(path.join(root, 'big.txt'))).toBe(createHash('sha256').update(content).digest('hex'));
  });

  it('hashes a 50 MB file in bounded memory (measured in a separate process)', async () => {
    const root = await tempRoot();
    const file = path.join(root, 'big.txt');
    await writeFile(file, Buffer.alloc(50 * 1024 * 1024, 'a line of a large text source\n'));
    const script = `
      const { hashFile } = await import(${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'dist/src/state/hash.js')).href)});
      const base = process.memoryUsage().rss;
      let peak = 0;
      const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss - base); }, 2);
      const sha = await hashFile(process.argv[1]);
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss - base);
      process.stdout.write(JSON.stringify({ sha, peakMb: peak / 1048576 }));
    `;
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script, file]);
    const { sha, peakMb } = JSON.parse(stdout) as { sha: string; peakMb: number };
    expect(sha).toBe(createHash('sha256').update(await readFile(file)).digest('hex'));
    expect(peakMb).toBeLessThan(16);
  });

  it('rejects a missing file', async () => {
    await expect(hashFile(path.join(await tempRoot(), 'missing.md'))).rejects.toThrow(/ENOENT/);
  });
});

describe('markStale', () => {
  const bodies = [
    '# Attention\n\nText with trailing spaces   \nand a [[link]].\n',
    '\n\n# Starts with blank lines\r\nand CRLF\r\n',
    'no trailing newline',
    '',
  ];

  it.each(bodies)('sets stale_since and keeps the body byte for byte (%j)', async (body) => {
    const root = await tempRoot();
    const relPath = 'wiki/concepts/attention.md';
    await write(root, relPath, `---\ntitle: Attention\nsummary: What attention is\ntags: [a, b]\nupdated: 2026-01-01\nextra: kept\n---\n${body}`);
    const result = await markStale(root, [relPath], '2026-02-03');
    expect(result).toEqual({ marked: [relPath], alreadyStale: [], missing: [], unparseable: [], notUtf8: [], refused: [] });
    const after = await readFile(path.join(root, relPath), 'utf8');
    expect(splitFrontmatter(after).body).toBe(body);
    expect(parsePage(relPath, after).frontmatter).toEqual({
      title: 'Attention',
      summary: 'What attention is',
      tags: ['a', 'b'],
      updated: '2026-01-01',
      stale_since: '2026-02-03',
      extra: 'kept',
    });
  });

  it('leaves already-stale, unparseable and non-UTF-8 pages untouched and reports missing ones', async () => {
    const root = await tempRoot();
    const stale = '---\ntitle: Old\nstale_since: 2025-12-01\n---\nbody\n';
    const broken = '---\ntitle: [unclosed\n---\nbody\n';
    const latin1 = Buffer.from('---\ntitle: Caf\xe9\n---\nd\xe9j\xe0 vu\n', 'latin1');
    await write(root, 'wiki/stale.md', stale);
    await write(root, 'wiki/broken.md', broken);
    await writeFile(path.join(root, 'wiki/latin1.md'), latin1);
    const result = await markStale(root, ['wiki/stale.md', 'wiki/broken.md', 'wiki/gone.md', 'wiki/stale.md', 'wiki/latin1.md'], '2026-02-03');
    expect(result).toEqual({ marked: [], alreadyStale: ['wiki/stale.md'], missing: ['wiki/gone.md'], unparseable: ['wiki/broken.md'], notUtf8: ['wiki/latin1.md'], refused: [] });
    expect(await readFile(path.join(root, 'wiki/stale.md'), 'utf8')).toBe(stale);
    expect(await readFile(path.join(root, 'wiki/broken.md'), 'utf8')).toBe(broken);
    expect((await readFile(path.join(root, 'wiki/latin1.md'))).equals(latin1)).toBe(true);
  });

  it('with a run, records the change for undo; a hand-edited page stays hand-edited, a tool page stays the tool\'s', async () => {
    const root = await tempRoot();
    const toolPage = 'wiki/tool.md';
    const handPage = 'wiki/hand.md';
    const writer = await beginRun(root, 'run-1', 'ingest', 'x');
    for (const page of [toolPage, handPage]) {
      await recordBefore(writer, page, undefined);
      await write(root, page, '---\ntitle: T\n---\nbody\n');
      await recordAfter(writer, page, '---\ntitle: T\n---\nbody\n');
    }
    await write(root, handPage, '---\ntitle: T\n---\nbody\nhuman line\n');

    const run = await beginRun(root, 'run-2', 'ingest', 'y');
    await markStale(root, [toolPage, handPage], '2026-02-03', run);
    expect((await readBeforeImage(root, 'run-2', handPage))?.toString('utf8')).toBe('---\ntitle: T\n---\nbody\nhuman line\n');
    expect([...(await humanEditedPaths(root, [toolPage, handPage]))]).toEqual([handPage]);
  });

  it('without a run, a page the tool wrote still reads as the tool\'s afterwards', async () => {
    const root = await tempRoot();
    const page = 'wiki/tool.md';
    const writer = await beginRun(root, 'run-1', 'ingest', 'x');
    await recordBefore(writer, page, undefined);
    await write(root, page, '---\ntitle: T\n---\nbody\n');
    await recordAfter(writer, page, '---\ntitle: T\n---\nbody\n');
    await markStale(root, [page], '2026-02-03');
    expect((await humanEditedPaths(root, [page])).size).toBe(0);
  });
});
