import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface RecordLine {
  path: string;
  sha256: string;
  size: number;
  ingestedAt: string;
  runId: string;
  created: string[];
  updated: string[];
}

/** The committed ingest record (`wiki.sources.jsonl`), keyed by source path as the manifest is. */
export async function readSourceRecord(root: string): Promise<{ sources: Record<string, RecordLine>; lines: string[] }> {
  const text = await readFile(path.join(root, 'wiki.sources.jsonl'), 'utf8');
  const lines = text.split('\n').filter((line) => line !== '');
  const sources: Record<string, RecordLine> = {};
  for (const line of lines) {
    const entry = JSON.parse(line) as RecordLine;
    sources[entry.path] = entry;
  }
  return { sources, lines };
}
