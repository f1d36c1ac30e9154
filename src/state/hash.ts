import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 1024 * 1024;

/**
 * sha256 of a file, read through one reused 1 MB buffer: a 50 MB source never sits in
 * memory whole, and no per-chunk buffers pile up waiting for the garbage collector.
 */
export async function hashFile(absPath: string): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(absPath, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/** sha256 of text as it is stored on disk (UTF-8). */
export function hashText(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
