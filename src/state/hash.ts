import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** sha256 of a file, streamed so a 50 MB source never sits in memory whole. */
export function hashFile(absPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(absPath)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** sha256 of text as it is stored on disk (UTF-8). */
export function hashText(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
