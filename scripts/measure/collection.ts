import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Judgements } from './metrics.js';

/**
 * A test collection as plain files (`docs.jsonl`, `queries.jsonl`, `qrels.tsv`, see
 * shared/eval/README.md).
 */
export interface CollectionDoc {
  id: string;
  title: string;
  author: string;
  text: string;
}

export interface Collection {
  name: string;
  docs: CollectionDoc[];
  queries: Array<{ id: string; text: string }>;
  /** query id → doc id → gain. */
  qrels: Map<string, Map<string, number>>;
}

function parseJsonLines<T>(text: string, file: string): T[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line, i) => {
      try {
        return JSON.parse(line) as T;
      } catch {
        throw new Error(`${file}:${i + 1}: not valid JSON`);
      }
    });
}

export async function loadCollection(dir: string): Promise<Collection> {
  const read = (name: string): Promise<string> => readFile(path.join(dir, name), 'utf8');
  const [docsText, queriesText, qrelsText] = await Promise.all([read('docs.jsonl'), read('queries.jsonl'), read('qrels.tsv')]);
  const docs = parseJsonLines<Partial<CollectionDoc>>(docsText, 'docs.jsonl').map((doc) => ({
    id: String(doc.id),
    title: doc.title ?? '',
    author: doc.author ?? '',
    text: doc.text ?? '',
  }));
  const queries = parseJsonLines<{ id: string | number; text: string }>(queriesText, 'queries.jsonl').map((q) => ({
    id: String(q.id),
    text: q.text,
  }));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of qrelsText.split('\n').slice(1)) {
    const [queryId, docId, gain] = line.trim().split('\t');
    if (!queryId || !docId || gain === undefined) continue;
    let judged = qrels.get(queryId);
    if (!judged) {
      judged = new Map();
      qrels.set(queryId, judged);
    }
    judged.set(docId, Number(gain));
  }
  return { name: path.basename(dir), docs, queries, qrels };
}

/** Only the judged queries count (every query in these sets has judgements). */
export function judgedQrels(collection: Collection): Map<string, Judgements> {
  const out = new Map<string, Judgements>();
  for (const query of collection.queries) {
    const judged = collection.qrels.get(query.id);
    if (judged && judged.size > 0) out.set(query.id, judged);
  }
  return out;
}
