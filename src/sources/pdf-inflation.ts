import { createInflate } from 'node:zlib';
import { InputError } from '../errors.js';
import { formatBytes } from './http.js';

/**
 * How much a PDF's Flate streams inflate to, measured before pdf.js decodes them (it would
 * hold each whole in memory): every `stream … endstream` whose dictionary names
 * FlateDecode is inflated through a streaming inflater that keeps nothing, and the count
 * stops at `limit`. Image streams are left out (text extraction never decodes them).
 * Throws InputError when the total passes `limit`; memory stays at one chunk.
 */
export async function checkPdfInflation(label: string, bytes: Uint8Array, limit: number): Promise<void> {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (let at = data.indexOf('stream', 0, 'latin1'); at >= 0; at = data.indexOf('stream', at + 6, 'latin1')) {
    if (at >= 3 && data.toString('latin1', at - 3, at) === 'end') continue;
    const dictionary = data.toString('latin1', Math.max(0, data.lastIndexOf('obj', at, 'latin1')), at);
    if (!/\/(FlateDecode|Fl)\b/.test(dictionary) || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    let start = at + 6;
    if (data[start] === 0x0d) start += 1;
    if (data[start] === 0x0a) start += 1;
    const end = data.indexOf('endstream', start, 'latin1');
    if (end < 0) break;
    total += await inflatedSize(data.subarray(start, end), limit - total);
    if (total > limit) {
      throw new InputError(
        `${label} inflates to more than ${formatBytes(limit)} of content (limits.pdfInflatedBytes in wiki.config.json); it was not read`,
        'a PDF this large inside is usually built to exhaust a reader; raise the limit only for a file you trust',
      );
    }
    at = end;
  }
}

/** Bytes `compressed` inflates to, counting stops just past `budget`; a damaged stream counts what came out before the damage. */
function inflatedSize(compressed: Uint8Array, budget: number): Promise<number> {
  return new Promise((resolve) => {
    const inflater = createInflate();
    let size = 0;
    const done = (): void => {
      inflater.removeAllListeners();
      inflater.on('error', () => undefined);
      inflater.destroy();
      resolve(size);
    };
    inflater.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > budget) done();
    });
    inflater.on('end', done);
    inflater.on('error', done);
    inflater.end(compressed);
  });
}
