import { deflateSync } from 'node:zlib';

/**
 * A tiny PDF writer so tests need no binary fixtures: each page shows its lines in
 * Helvetica (a standard Type 1 font, so no font file is embedded), one line under the other.
 * Text is limited to Latin-1 (WinAnsi); the byte offsets in the xref table are exact.
 */
export interface PdfFixtureOptions {
  /** Document title in the Info dictionary. */
  title?: string;
  /**
   * Adds a Standard security handler whose user password is not empty, so a reader
   * without the password cannot open the file (the content itself is not encrypted).
   */
  passwordProtected?: boolean;
  /**
   * Compress each page's content stream (FlateDecode), after padding it with this many bytes
   * of blank lines: a small file that inflates large, as a hostile PDF does.
   */
  inflatedPadding?: number;
}

const LINE_HEIGHT = 16;
const FONT_SIZE = 12;

export function makePdf(pages: string[][], options: PdfFixtureOptions = {}): Uint8Array {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };

  const catalog = add('');
  const pageTree = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const lines of pages) {
    const plain = contentStream(lines);
    const stream = options.inflatedPadding === undefined ? plain : deflateSync(Buffer.from(`${plain}\n${'\n'.repeat(options.inflatedPadding)}`, 'latin1')).toString('latin1');
    const filter = options.inflatedPadding === undefined ? '' : ' /Filter /FlateDecode';
    const contents = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')}${filter} >>\nstream\n${stream}\nendstream`);
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] ` +
          `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  objects[pageTree - 1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  const info = options.title === undefined ? undefined : add(`<< /Title ${pdfString(options.title)} >>`);
  const encrypt = options.passwordProtected
    ? add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> >>`)
    : undefined;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  const trailer = [`/Size ${objects.length + 1}`, `/Root ${catalog} 0 R`];
  if (info !== undefined) trailer.push(`/Info ${info} 0 R`);
  if (encrypt !== undefined) trailer.push(`/Encrypt ${encrypt} 0 R`, `/ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`);
  out += `trailer\n<< ${trailer.join(' ')} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

function contentStream(lines: string[]): string {
  const shown = lines.map((line, index) => (index === 0 ? `${pdfString(line)} Tj` : `T* ${pdfString(line)} Tj`));
  return [`BT /F1 ${FONT_SIZE} Tf ${LINE_HEIGHT} TL 72 720 Td`, ...shown, 'ET'].join('\n');
}

function pdfString(text: string): string {
  for (const char of text) {
    if (char.charCodeAt(0) > 0xff) throw new Error(`pdf fixture: ${JSON.stringify(char)} is outside Latin-1`);
  }
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}
