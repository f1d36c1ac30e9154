import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rawContentLines, rawLineCounter } from '../../src/sources/line-count.js';
import { DiskFs } from '../../src/tools/workspace-fs.js';
import { call, makeContext, makeWorkspace, recordingFs, type TempWorkspace } from './fixtures.js';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

async function put(relative: string, content: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(path.join(ws.root, relative)), { recursive: true });
  await writeFile(path.join(ws.root, relative), content);
}

/** Split a read_file result into its header line and the window text (a source's, out of its delimiters). */
function parts(content: string): { header: string; text: string } {
  const newline = content.indexOf('\n');
  if (newline === -1) return { header: content, text: '' };
  const header = content.slice(0, newline);
  const body = content.slice(newline + 1);
  const delimited = /^<source-text path="raw\/[^"]+">\n([\s\S]*)\n<\/source-text>$/.exec(body);
  // Pages, and the byte windows of huge files, come unnumbered.
  if (!/^\[raw\//.test(header) || /: bytes \d/.test(header)) return { header, text: delimited ? (delimited[1] ?? '') : body };
  expect(delimited).not.toBeNull();
  return { header, text: unnumbered(delimited?.[1] ?? '', Number(/lines (\d+)-/.exec(header)?.[1] ?? 1)) };
}

/** A source window's text without its line numbers, which must run on from `first`. */
function unnumbered(text: string, first: number): string {
  const lines = text.split('\n');
  const last = lines.length > 1 && lines.at(-1) === '' ? lines.pop() : undefined;
  const plain = lines.map((line, index) => {
    expect(line.startsWith(`${first + index}\u2502`), `line ${index} of the window: ${line.slice(0, 20)}`).toBe(true);
    return line.slice(`${first + index}\u2502`.length);
  });
  return plain.join('\n') + (last === undefined ? '' : '\n');
}

describe('read_file windows', () => {
  it('states the window, the total and the next offset, and windows join up to the whole file', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    await put('raw/lines.txt', text);
    const { tools } = makeContext(ws);
    let offset = 0;
    let joined = '';
    const headers: string[] = [];
    for (let guard = 0; guard < 20; guard++) {
      const result = await call(tools, 'read_file', { path: 'raw/lines.txt', offset, limit: 100 });
      expect(result.isError).toBe(false);
      const { header, text: window } = parts(result.content);
      headers.push(header);
      joined += window;
      const next = /next offset: (\d+)/.exec(header);
      if (!next) break;
      offset = Number(next[1]);
    }
    expect(joined).toBe(text);
    // Windows end after a whole line: 9 lines of 7 characters and 4 of 8 fit in 100.
    expect(headers[0]).toBe(`[raw/lines.txt: characters 0-95 of ${text.length}, lines 1-13 of 30; next offset: 95]`);
    expect(headers.at(-1)).toMatch(/end of file\]$/);
  });

  it('cuts a window after a whole line, never inside a word, and lets a short tail join the window before it', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`);
    const text = `${words.slice(0, 200).join(' ')}\n${words.slice(200).join(' ')}\n`;
    await put('raw/words.md', text);
    const { tools } = makeContext(ws);
    // One line longer than half a window: cut at a space, not inside a word.
    const first = parts((await call(tools, 'read_file', { path: 'raw/words.md', limit: 1000 })).content).text;
    expect(first.endsWith(' ')).toBe(true);
    expect(text.startsWith(first)).toBe(true);
    // 100 characters left after a window of 1,600: under a quarter of a window, so they come with it.
    await put('raw/tail.md', `${'a line of the tail file\n'.repeat(70)}`);
    const whole = await call(tools, 'read_file', { path: 'raw/tail.md', limit: 1600 });
    expect(whole.content).toMatch(/characters 0-1680 of 1680, lines 1-70 of 70; end of file\]/);
  });

  it('a window from an offset inside a line starts at that line, labelled with the lines it holds; inside a very long line it says it starts mid-line', async () => {
    await put('raw/mid.md', 'alpha one\nbeta two\ngamma three\n');
    const { tools } = makeContext(ws);
    // Offset 13 is inside "beta two" (line 2): the window starts at that line, never labelled 2 while holding half of it.
    const moved = await call(tools, 'read_file', { path: 'raw/mid.md', offset: 13 });
    expect(moved.content.split('\n')[0]).toBe('[raw/mid.md: characters 10-31 of 31, lines 2-3 of 3 (from the start of line 2, which offset 13 was inside); end of file]');
    expect(moved.content).toContain('\n2\u2502beta two\n');
    // A line longer than a quarter of a window back: not moved, and said to be mid-line.
    await put('raw/long-line.md', `${'word '.repeat(400)}\nnext line\n`);
    const mid = await call(tools, 'read_file', { path: 'raw/long-line.md', offset: 1000, limit: 400 });
    expect(mid.content.split('\n')[0]).toMatch(/^\[raw\/long-line\.md: characters 1000-\d+ of \d+, lines 1-1 of 2 \(starting in the middle of line 1\);/);
  });

  it('numbers the lines of a source window and states the default window in the tool description', async () => {
    await put('raw/n.md', 'alpha\nbeta\ngamma\n');
    await put('wiki/concepts/page.md', '---\ntitle: P\n---\n\nBody.\n');
    const { tools } = makeContext(ws);
    const window = await call(tools, 'read_file', { path: 'raw/n.md', offset: 6 });
    expect(window.content).toBe('[raw/n.md: characters 6-17 of 17, lines 2-3 of 3; end of file]\n<source-text path="raw/n.md">\n2\u2502beta\n3\u2502gamma\n\n</source-text>');
    // A page is not cited by line, and its text goes back into writes: not numbered.
    const page = await call(tools, 'read_file', { path: 'wiki/concepts/page.md' });
    expect(page.content.split('\n')[1]).toBe('---');
    const description = tools['read_file']?.definition.description ?? '';
    expect(description).toContain('about 20,000 characters');
    expect(description).toContain('120\u2502');
  });

  it('uses the context default window and caps larger limits', async () => {
    await put('raw/long.txt', 'x'.repeat(80_000));
    const small = makeContext(ws, { readLimit: 1234 }).tools;
    expect(parts((await call(small, 'read_file', { path: 'raw/long.txt' })).content).text).toHaveLength(1234);
    // The definition is the same whatever the run's window, so the tools stay a cached prefix
    // across runs with different budgets; the run's first message states the smaller window.
    const { tools } = makeContext(ws);
    expect(JSON.stringify(small['read_file']?.definition)).toBe(JSON.stringify(tools['read_file']?.definition));
    const defaulted = await call(tools, 'read_file', { path: 'raw/long.txt' });
    expect(parts(defaulted.content).text).toHaveLength(20_000);
    const capped = await call(tools, 'read_file', { path: 'raw/long.txt', limit: 1_000_000 });
    expect(parts(capped.content).header).toContain('limit capped at 50000');
    expect(parts(capped.content).text).toHaveLength(50_000);
  });

  it('never splits a character made of two UTF-16 units', async () => {
    await put('raw/emoji.md', 'a😀b');
    const { tools } = makeContext(ws);
    const first = await call(tools, 'read_file', { path: 'raw/emoji.md', limit: 2 });
    expect(parts(first.content).text).toBe('a');
    expect(first.content).toContain('next offset: 1');
    const second = await call(tools, 'read_file', { path: 'raw/emoji.md', offset: 1, limit: 2 });
    expect(parts(second.content).text).toBe('😀');
  });

  it('reports an empty file, the end exactly, and refuses an offset past the end', async () => {
    await put('raw/empty.md', '');
    const { tools } = makeContext(ws);
    expect((await call(tools, 'read_file', { path: 'raw/empty.md' })).content).toBe('[raw/empty.md: empty file]');
    const atEnd = await call(tools, 'read_file', { path: 'raw/paper.md', offset: 50 });
    expect(atEnd.isError).toBe(false);
    expect(atEnd.content).toContain('end of file');
    const past = await call(tools, 'read_file', { path: 'raw/paper.md', offset: 51 });
    expect(past).toMatchObject({ isError: true });
    expect(past.content).toContain('past the end of raw/paper.md (50 characters)');
  });
});

describe('read_file numbering agrees with the citation check', () => {
  it.each([
    ['a trailing newline', 'one\ntwo\n\nfour\n'],
    ['no trailing newline', 'one\ntwo\nthree'],
    ['CRLF line ends', 'one\r\ntwo\r\n'],
    ['a single blank line', '\n'],
  ])('%s: the last numbered line is the line count `wiki lint` checks #L ranges against', async (_name, text) => {
    await put('raw/cite.md', text);
    const { tools } = makeContext(ws);
    const result = await call(tools, 'read_file', { path: 'raw/cite.md' });
    const numbers = [...result.content.matchAll(/^(\d+)\u2502/gm)].map((match) => Number(match[1]));
    const total = rawLineCounter(rawContentLines(ws.root))('raw/cite.md');
    expect(numbers.at(-1)).toBe(total);
    expect(result.content).toContain(`of ${total}; end of file]`);
  });
});

describe('read_file refusals and errors', () => {
  it('refuses a binary file with NUL bytes', async () => {
    await put('raw/image.png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const { tools } = makeContext(ws);
    const result = await call(tools, 'read_file', { path: 'raw/image.png' });
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain('raw/image.png is a binary file');
  });

  it('refuses bytes that are mostly not UTF-8 even without NUL', async () => {
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => 0x80 + (i % 0x7f));
    await put('raw/blob.bin', bytes);
    const { tools } = makeContext(ws);
    expect((await call(tools, 'read_file', { path: 'raw/blob.bin' })).content).toContain('binary file');
  });

  it('reads Latin-1 text with replacement characters and says so', async () => {
    await put('raw/latin1.txt', Buffer.from('Caf\xe9 cr\xe8me, na\xefve text with a few accents.\n', 'latin1'));
    const { tools } = makeContext(ws);
    const result = await call(tools, 'read_file', { path: 'raw/latin1.txt' });
    expect(result.isError).toBe(false);
    expect(result.content).toContain('not valid UTF-8: 3 invalid byte sequence(s)');
    expect(parts(result.content).text).toBe('Caf\uFFFD cr\uFFFDme, na\uFFFDve text with a few accents.\n');
  });

  it('decodes UTF-16 text that carries a byte-order mark', async () => {
    await put('raw/utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo wörld\n', 'utf16le')]));
    const { tools } = makeContext(ws);
    expect(parts((await call(tools, 'read_file', { path: 'raw/utf16.txt' })).content).text).toBe('héllo wörld\n');
  });

  it('points a directory to list_directory', async () => {
    const { tools } = makeContext(ws);
    const result = await call(tools, 'read_file', { path: 'wiki/concepts' });
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain('wiki/concepts is a directory; use list_directory("wiki/concepts")');
  });

  it('lists close names for a missing file and the nearest folder for a missing folder', async () => {
    const { tools } = makeContext(ws);
    const typo = await call(tools, 'read_file', { path: 'wiki/concepts/atention.md' });
    expect(typo).toMatchObject({ isError: true });
    expect(typo.content).toContain('Close names in wiki/concepts/: attention.md');
    const folder = await call(tools, 'read_file', { path: 'wiki/concept/attention.md' });
    expect(folder.content).toContain('there is no folder wiki/concept/');
    expect(folder.content).toContain('nearest existing folder is wiki');
  });

  it('never suggests hidden or secret names', async () => {
    const { tools } = makeContext(ws);
    const result = await call(tools, 'read_file', { path: 'env' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('env does not exist');
    expect(result.content).not.toMatch(/\.env|\.git|\.wiki/);
  });
});

describe('read_file on huge files', () => {
  it('reads only the byte range it needs, with offsets in bytes and no split characters', async () => {
    const unit = 'Ωmega café ☕ — line of text\n';
    const big = unit.repeat(Math.ceil((9 * 1024 * 1024) / Buffer.byteLength(unit)));
    await put('raw/huge.txt', big);
    const size = Buffer.byteLength(big);
    const fs = recordingFs(new DiskFs(ws.root));
    const { tools } = makeContext(ws, { fs });
    const first = await call(tools, 'read_file', { path: 'raw/huge.txt', limit: 1001 });
    expect(first.isError).toBe(false);
    const header = parts(first.content).header;
    expect(header).toMatch(new RegExp(`bytes 0-\\d+ of ${size}; next offset: \\d+; large file: offset and limit count bytes`));
    const next = Number(/next offset: (\d+)/.exec(header)?.[1]);
    const second = await call(tools, 'read_file', { path: 'raw/huge.txt', offset: next, limit: 1001 });
    const joined = parts(first.content).text + parts(second.content).text;
    expect(big.startsWith(joined)).toBe(true);
    expect(joined).not.toContain('\uFFFD');
    // An offset in the middle of a character moves forward to the next whole one.
    const inside = Buffer.byteLength('Ω') - 1;
    const mid = await call(tools, 'read_file', { path: 'raw/huge.txt', offset: inside, limit: 50 });
    expect(parts(mid.content).text.startsWith('mega café')).toBe(true);
    expect(fs.reads.every((read) => read.range !== undefined && read.range.length <= 64 * 1024)).toBe(true);
  });

  it('refuses a huge binary file from its first bytes', async () => {
    const bytes = new Uint8Array(9 * 1024 * 1024);
    bytes.fill(65);
    bytes[10] = 0;
    await put('raw/huge.bin', bytes);
    const { tools } = makeContext(ws);
    expect((await call(tools, 'read_file', { path: 'raw/huge.bin' })).content).toContain('binary file');
  });
});

describe('read_file with a text extractor', () => {
  it('windows over extracted text and extracts a file only once per run', async () => {
    await put('raw/paper.pdf', Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0, 1, 2, 3]));
    const calls: string[] = [];
    const textExtractor = async (p: string, bytes: Uint8Array) => {
      calls.push(p);
      return p.endsWith('.pdf') ? `Extracted ${bytes.length} bytes. `.repeat(10) : undefined;
    };
    const { tools } = makeContext(ws, { textExtractor });
    const first = await call(tools, 'read_file', { path: 'raw/paper.pdf', limit: 20 });
    expect(first.content).toMatch(/^\[raw\/paper\.pdf: characters 0-19 of 190, lines 1-1 of 1; next offset: 19; extracted text\]\n<source-text path="raw\/paper\.pdf">\n1\u2502Extracted 8 bytes\. \n/);
    await call(tools, 'read_file', { path: 'raw/paper.pdf', offset: 19, limit: 20 });
    expect(calls).toEqual(['raw/paper.pdf']);
    const plain = await call(tools, 'read_file', { path: 'raw/paper.md' });
    expect(plain.content).toContain('Attention lets a model weigh tokens.');
    expect(calls).toEqual(['raw/paper.pdf', 'raw/paper.md']);
  });
});
