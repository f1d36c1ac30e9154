import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Embeddings already paid for, keyed by a hash of the model and the exact text sent, so
 * a rebuilt index or a page changed back never asks the endpoint twice. One append-only
 * file per endpoint and model: records of `sha1 (20 bytes) · dimensions (u32 LE) · floats`.
 * A torn last record (a crash mid-append) is ignored.
 */
const KEY_BYTES = 20;

export class EmbeddingCache {
  private readonly entries = new Map<string, Float32Array>();
  private unsaved: Array<{ key: string; vector: Float32Array }> = [];

  private constructor(
    readonly file: string | undefined,
    private readonly model: string,
  ) {}

  /** A cache backed by `file` (created on first flush); `undefined` keeps it in memory only. */
  static async open(file: string | undefined, model: string): Promise<EmbeddingCache> {
    const cache = new EmbeddingCache(file, model);
    if (file) {
      let bytes: Buffer | undefined;
      try {
        bytes = await readFile(file);
      } catch {
        bytes = undefined;
      }
      if (bytes) cache.parse(bytes);
    }
    return cache;
  }

  private parse(bytes: Buffer): void {
    let offset = 0;
    while (offset + KEY_BYTES + 4 <= bytes.length) {
      const key = bytes.subarray(offset, offset + KEY_BYTES).toString('hex');
      const dims = bytes.readUInt32LE(offset + KEY_BYTES);
      const start = offset + KEY_BYTES + 4;
      const end = start + dims * 4;
      if (dims === 0 || end > bytes.length) break;
      const vector = new Float32Array(dims);
      for (let i = 0; i < dims; i++) vector[i] = bytes.readFloatLE(start + i * 4);
      this.entries.set(key, vector);
      offset = end;
    }
  }

  keyOf(text: string): string {
    return createHash('sha1').update(this.model).update('\n').update(text).digest('hex');
  }

  get(text: string): Float32Array | undefined {
    return this.entries.get(this.keyOf(text));
  }

  put(text: string, vector: Float32Array): void {
    const key = this.keyOf(text);
    if (this.entries.has(key)) return;
    this.entries.set(key, vector);
    this.unsaved.push({ key, vector });
  }

  get size(): number {
    return this.entries.size;
  }

  async flush(): Promise<void> {
    if (!this.file || this.unsaved.length === 0) return;
    const records = this.unsaved.map(({ key, vector }) => {
      const record = Buffer.alloc(KEY_BYTES + 4 + vector.length * 4);
      Buffer.from(key, 'hex').copy(record, 0);
      record.writeUInt32LE(vector.length, KEY_BYTES);
      vector.forEach((value, i) => record.writeFloatLE(value, KEY_BYTES + 4 + i * 4));
      return record;
    });
    this.unsaved = [];
    await mkdir(path.dirname(this.file), { recursive: true });
    await appendFile(this.file, Buffer.concat(records));
  }
}

/** A file name for one endpoint + model pair. */
export function cacheFileName(baseUrl: string, model: string): string {
  const slug = model.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'model';
  const tag = createHash('sha1').update(`${baseUrl}\n${model}`).digest('hex').slice(0, 8);
  return `${slug}-${tag}.bin`;
}
