import type { FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { CorruptIndexError, decodeJson, encodeJson } from '../kernels/binary.js';

/**
 * The persisted index is one file, written atomically, so a reader never sees half of
 * an update: a magic tag, a format version, a JSON header (metadata, the section table
 * and a CRC-32 of the payload), then the binary sections, each 8-byte aligned so typed
 * arrays can view them in place. Anything unexpected raises CorruptIndexError and the
 * caller rebuilds.
 */
export const INDEX_FORMAT_VERSION = 6;
const MAGIC = 'WIKISRCH';
const PREAMBLE = MAGIC.length + 8;

export type Sections = Record<string, Uint8Array>;

interface SectionEntry {
  name: string;
  offset: number;
  length: number;
}

interface Header {
  meta: unknown;
  sections: SectionEntry[];
  payloadLength: number;
  crc: number;
}

export class StaleIndexError extends CorruptIndexError {}

export function encodeSnapshot(meta: unknown, sections: Sections): Buffer {
  const entries: SectionEntry[] = [];
  let offset = 0;
  for (const [name, bytes] of Object.entries(sections)) {
    entries.push({ name, offset, length: bytes.byteLength });
    offset = align(offset + bytes.byteLength);
  }
  // The payload is laid out first (its CRC goes in the header), in a buffer with room for
  // the largest header it can need, then the header is written just before it.
  const payloadLength = offset;
  const room = align(PREAMBLE + encodeJson({ meta, sections: entries, payloadLength, crc: 0xffffffff }).length) - PREAMBLE;
  const out = Buffer.allocUnsafe(PREAMBLE + room + payloadLength);
  const payload = out.subarray(PREAMBLE + room);
  let end = 0;
  for (const entry of entries) {
    payload.fill(0, end, entry.offset); // alignment gaps: deterministic bytes for the CRC
    payload.set(sections[entry.name] ?? new Uint8Array(), entry.offset);
    end = entry.offset + entry.length;
  }
  payload.fill(0, end);
  const header: Header = { meta, sections: entries, payloadLength, crc: crc32(payload) };
  const headerBytes = encodeJson(header);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(INDEX_FORMAT_VERSION, MAGIC.length);
  out.writeUInt32LE(room, MAGIC.length + 4);
  out.set(headerBytes, PREAMBLE);
  out.fill(0x20, PREAMBLE + headerBytes.length, PREAMBLE + room);
  return out;
}

export function decodeSnapshot(bytes: Uint8Array): { meta: unknown; sections: Sections } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < PREAMBLE || buffer.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    throw new CorruptIndexError('not a search index file');
  }
  const version = buffer.readUInt32LE(MAGIC.length);
  if (version !== INDEX_FORMAT_VERSION) throw new StaleIndexError(`index format ${version}, expected ${INDEX_FORMAT_VERSION}`);
  const headerLength = buffer.readUInt32LE(MAGIC.length + 4);
  if (PREAMBLE + headerLength > buffer.length) throw new CorruptIndexError('index header is truncated');
  const header = decodeJson(buffer.subarray(PREAMBLE, PREAMBLE + headerLength)) as Header;
  if (!header || !Array.isArray(header.sections) || typeof header.payloadLength !== 'number') {
    throw new CorruptIndexError('index header is malformed');
  }
  const payloadStart = PREAMBLE + headerLength;
  const payload = buffer.subarray(payloadStart);
  if (payload.length !== header.payloadLength) throw new CorruptIndexError('index payload is truncated');
  if (crc32(payload) !== header.crc) throw new CorruptIndexError('index checksum does not match');
  const sections: Sections = {};
  for (const entry of header.sections) {
    if (entry.offset < 0 || entry.length < 0 || entry.offset + entry.length > payload.length) {
      throw new CorruptIndexError(`index section ${entry.name} is out of bounds`);
    }
    sections[entry.name] = payload.subarray(entry.offset, entry.offset + entry.length);
  }
  return { meta: header.meta, sections };
}

function align(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/** `{a: x}` under prefix `p` becomes `{'p.a': x}`. */
export function withPrefix(prefix: string, sections: Sections | undefined): Sections {
  const out: Sections = {};
  for (const [name, bytes] of Object.entries(sections ?? {})) out[`${prefix}.${name}`] = bytes;
  return out;
}

/** The sections under `prefix`, with the prefix removed. */
export function underPrefix(prefix: string, sections: Sections): Record<string, Uint8Array | undefined> {
  const out: Record<string, Uint8Array | undefined> = {};
  const lead = `${prefix}.`;
  for (const [name, bytes] of Object.entries(sections)) if (name.startsWith(lead)) out[name.slice(lead.length)] = bytes;
  return out;
}

/**
 * The metadata of an index file from its header alone (a few hundred bytes), without
 * reading or checking the payload. Undefined for another format version.
 */
export async function readSnapshotMeta(handle: FileHandle): Promise<unknown> {
  const preamble = Buffer.alloc(PREAMBLE);
  const { bytesRead } = await handle.read(preamble, 0, PREAMBLE, 0);
  if (bytesRead < PREAMBLE || preamble.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new CorruptIndexError('not a search index file');
  if (preamble.readUInt32LE(MAGIC.length) !== INDEX_FORMAT_VERSION) return undefined;
  const length = preamble.readUInt32LE(MAGIC.length + 4);
  const header = Buffer.alloc(length);
  const read = await handle.read(header, 0, length, PREAMBLE);
  if (read.bytesRead < length) throw new CorruptIndexError('index header is truncated');
  return (decodeJson(header) as Header).meta;
}
