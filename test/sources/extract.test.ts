import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { SUPPORTED_EXTENSIONS, extractText, isExtractable } from '../../src/sources/extract.js';
import { makePdf } from '../helpers/pdf-fixture.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

const ARTICLE = `<!doctype html>
<html><head><title>Attention Is All You Need | Example Journal</title>
<script>var tracking = "SECRET-TRACKER";</script><style>body { color: red }</style></head>
<body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/about">About the journal</a></li><li><a href="/subscribe">Subscribe now</a></li></ul></nav></header>
<main><article>
<h1>Attention Is All You Need</h1>
<p>The dominant sequence transduction models are based on complex recurrent or convolutional neural networks that include an encoder and a decoder. The best models also connect encoder and decoder through attention.</p>
<h2>Model architecture</h2>
<p>Most competitive neural sequence <a href="javascript:void(track())">transduction</a> models have an encoder-decoder structure. The encoder maps an input sequence of symbol representations to a sequence of continuous representations.</p>
<h3>Scaled dot-product attention</h3>
<p>We call our particular attention "Scaled Dot-Product Attention". The input consists of queries and keys of dimension dk, and values of dimension dv.</p>
<table><tr><th>Model</th><th>BLEU</th></tr><tr><td>Transformer (big)</td><td>28.4</td></tr></table>
</article></main>
<footer><p>Copyright 2017 Example Journal. All rights reserved. Cookie settings.</p></footer>
</body></html>`;

describe('extractText: PDF', () => {
  it('returns every page opened by a page marker, lines in reading order, with the document title', async () => {
    const pdf = makePdf(
      [
        ['Attention (2017)', 'Transformers use self-attention.'],
        ['Results', 'BLEU 28.4 on WMT14 English-German.'],
      ],
      { title: 'Attention paper' },
    );
    const result = await extractText('raw/attention.pdf', pdf);
    expect(result.format).toBe('pdf');
    expect(result.title).toBe('Attention paper');
    expect(result.warnings).toEqual([]);
    expect(result.text).toBe(
      [
        '<!-- page 1 -->',
        'Attention (2017)',
        'Transformers use self-attention.',
        '',
        '<!-- page 2 -->',
        'Results',
        'BLEU 28.4 on WMT14 English-German.',
        '',
      ].join('\n'),
    );
  });

  it('recognises a PDF by its signature whatever the file is called', async () => {
    const result = await extractText('raw/download', makePdf([['Hello from a PDF']]));
    expect(result.format).toBe('pdf');
    expect(result.text).toContain('Hello from a PDF');
  });

  it.each([
    ['password-protected', makePdf([['secret']], { passwordProtected: true }), /password-protected PDF/],
    ['damaged', utf8('%PDF-1.7\nthis is not really a pdf\n'), /not a valid PDF/],
    ['misnamed HTML', utf8('<html><body>error page</body></html>'), /not a valid PDF/],
    ['text-free (scanned)', makePdf([[]]), /no extractable text/],
  ])('refuses a %s PDF with InputError', async (_name, bytes, message) => {
    const failure = extractText('raw/paper.pdf', bytes);
    await expect(failure).rejects.toBeInstanceOf(InputError);
    await expect(failure).rejects.toThrow(message);
  });

  it('leaves the caller’s bytes usable', async () => {
    const pdf = makePdf([['Reusable']]);
    const copy = Uint8Array.from(pdf);
    await extractText('raw/a.pdf', pdf);
    expect(pdf).toEqual(copy);
  });
});

describe('extractText: HTML', () => {
  it('converts the main article to markdown with headings as section markers, dropping page chrome', async () => {
    const result = await extractText('raw/attention.html', utf8(ARTICLE));
    expect(result.format).toBe('html');
    expect(result.title).toBe('Attention Is All You Need');
    expect(result.warnings).toEqual([]);
    const lines = result.text.split('\n');
    expect(lines[0]).toBe('# Attention Is All You Need');
    expect(lines).toContain('## Model architecture');
    expect(lines).toContain('### Scaled dot-product attention');
    expect(result.text).toContain('The encoder maps an input sequence');
    expect(result.text).toContain('| Transformer (big) | 28.4 |');
    expect(result.text).toContain('Most competitive neural sequence transduction models');
    expect(result.text).not.toContain('javascript:');
    for (const chrome of ['Subscribe now', 'About the journal', 'Cookie settings', 'SECRET-TRACKER', 'color: red']) {
      expect(result.text).not.toContain(chrome);
    }
  });

  it('converts the whole body, with a warning, when no article can be found', async () => {
    const html = '<html><head><title>Notice</title></head><body><footer>Only a footer <a href="javascript:go()">here</a></footer></body></html>';
    const result = await extractText('raw/notice.htm', utf8(html));
    expect(result.text).toBe('# Notice\n\nOnly a footer here\n');
    expect(result.warnings).toEqual(['raw/notice.htm: no main article found; converted the whole page']);
  });

  it('honours the charset the page declares', async () => {
    const latin1 = Buffer.from('<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e \x80 5</p></body></html>', 'latin1');
    const result = await extractText('raw/menu.html', latin1);
    expect(result.title).toBe('Café');
    expect(result.text).toContain('Crème brûlée € 5');
    expect(result.warnings).toEqual([]);
  });

  it('sniffs an HTML document without an extension', async () => {
    const result = await extractText('raw/saved-page', utf8(ARTICLE));
    expect(result.format).toBe('html');
  });

  it('refuses a page with no readable text', async () => {
    await expect(extractText('raw/blank.html', utf8('<html><body><script>x()</script></body></html>'))).rejects.toThrow(
      'raw/blank.html has no readable text',
    );
  });
});

describe('extractText: text and markdown', () => {
  it('decodes UTF-8 and strips a byte-order mark', async () => {
    const result = await extractText('raw/notes.md', utf8('\uFEFF# Notes\n\nZürich — 東京 😀\n'));
    expect(result).toEqual({ text: '# Notes\n\nZürich — 東京 😀\n', format: 'markdown', warnings: [] });
  });

  it('decodes UTF-16 text that carries a byte-order mark', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('naïve text\n', 'utf16le')]);
    expect((await extractText('raw/u16.txt', bytes)).text).toBe('naïve text\n');
  });

  it('decodes invalid UTF-8 with replacement characters and a warning', async () => {
    const latin1 = Buffer.from('Caf\xe9 au lait\nsecond line\n', 'latin1');
    const result = await extractText('raw/old.txt', latin1);
    expect(result.format).toBe('text');
    expect(result.text).toBe('Caf\uFFFD au lait\nsecond line\n');
    expect(result.warnings).toEqual([
      'raw/old.txt is not valid UTF-8; decoded with replacement characters (their sentences are left out of the facts); if it is Latin-1, convert it first: iconv -f latin1 -t utf-8 raw/old.txt > utf8.tmp && mv utf8.tmp raw/old.txt',
    ]);
  });

  it.each([
    ['a PNG image', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]), 'raw/figure.md'],
    ['a NUL byte in text', utf8('looks like text\u0000but is not'), 'raw/data.txt'],
    ['mostly control bytes', Uint8Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? 0x01 : 0x41)), 'raw/blob.txt'],
    ['an HTML file that is binary', Buffer.from([0x3c, 0x68, 0x74, 0x6d, 0x6c, 0x3e, 0x00, 0x01]), 'raw/page.html'],
  ])('refuses %s as binary', async (_name, bytes, relPath) => {
    const failure = extractText(relPath, bytes);
    await expect(failure).rejects.toBeInstanceOf(InputError);
    await expect(failure).rejects.toThrow(`${relPath} is a binary file; wiki reads text, markdown, PDF and HTML`);
  });

  it.each([
    ['no bytes', new Uint8Array(0)],
    ['only whitespace', utf8(' \n\t\r\n  ')],
    ['only a byte-order mark', utf8('\uFEFF\n')],
  ])('refuses a file with %s as empty', async (_name, bytes) => {
    const failure = extractText('raw/empty.md', bytes);
    await expect(failure).rejects.toBeInstanceOf(InputError);
    await expect(failure).rejects.toThrow('raw/empty.md is empty');
  });

  it('keeps text with ANSI colour escapes (log files) as text', async () => {
    const result = await extractText('raw/build.log', utf8('\u001b[32mPASS\u001b[0m all good\n'));
    expect(result.format).toBe('text');
  });
});

describe('isExtractable and SUPPORTED_EXTENSIONS', () => {
  it.each([
    ['raw/paper.pdf', true],
    ['raw/PAPER.PDF', true],
    ['raw/page.html', true],
    ['raw/page.htm', true],
    ['raw/notes.md', false],
    ['raw/notes.txt', false],
    ['raw/data.json', false],
  ])('%s needs extraction: %s', (relPath, expected) => {
    expect(isExtractable(relPath)).toBe(expected);
  });

  it('lists the source formats ingest picks up', () => {
    expect([...SUPPORTED_EXTENSIONS].sort()).toEqual(['.htm', '.html', '.markdown', '.md', '.pdf', '.txt', '.xhtml']);
  });
});
