import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Collection } from './collection.js';
import { factsDbFile, updateFacts, type FactsSettings } from '../../src/facts/extract.js';
import { groundPage, type CandidateFact } from '../../src/facts/grounding.js';
import { FactStore } from '../../src/facts/store.js';

/** The measurements `npm run eval -- --facts` reports for one collection. */
export interface FactsMeasurement {
  sources: number;
  megabytes: number;
  seconds: number;
  facts: number;
  duplicatesMerged: number;
  /** A second pass over unchanged sources left every byte of the store as it was. */
  rerunUnchanged: boolean;
  /** Editing one source changed only facts that source states. */
  editLocal: boolean;
  grounding: { altered: number; alteredFlagged: number; supported: number; supportedFlagged: number };
}

const settings: FactsSettings = { grain: 'sentence', similarity: 0.85, maxSourceBytes: 64 * 1024 * 1024 };

export async function measureFacts(collection: Collection, plantedPages = 200): Promise<FactsMeasurement> {
  const root = await mkdtemp(path.join(tmpdir(), 'wiki-facts-eval-'));
  try {
    await mkdir(path.join(root, 'raw'));
    const sources: string[] = [];
    let bytes = 0;
    for (const doc of collection.docs) {
      const rel = `raw/${doc.id.replace(/[^\w.-]/g, '_')}.md`;
      const text = `# ${doc.title}\n\n${doc.text}\n`;
      bytes += Buffer.byteLength(text);
      await writeFile(path.join(root, rel), text);
      sources.push(rel);
    }
    const started = process.hrtime.bigint();
    const report = await updateFacts(root, sources, settings);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const before = await readFile(factsDbFile(root));
    await updateFacts(root, sources, settings);
    const rerunUnchanged = Buffer.compare(before, await readFile(factsDbFile(root))) === 0;
    const editLocal = await measureEditLocality(root, sources);
    const grounding = await measureGrounding(root, sources.slice(1, 1 + plantedPages));
    const store = await FactStore.open(factsDbFile(root), { readonly: true });
    const stats = store.stats();
    store.close();
    return { sources: sources.length, megabytes: bytes / 1e6, seconds, facts: report.facts.inserted, duplicatesMerged: stats.duplicatesMerged, rerunUnchanged, editLocal, grounding };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Snapshot every fact not stated by `edited`, edit it, and compare. */
async function measureEditLocality(root: string, sources: string[]): Promise<boolean> {
  const edited = sources[0];
  if (!edited) return true;
  const others = async (): Promise<string> => {
    const store = await FactStore.open(factsDbFile(root), { readonly: true });
    try {
      return JSON.stringify(sources.slice(1).map((s) => store.factsOfSources([s])));
    } finally {
      store.close();
    }
  };
  const before = await others();
  const file = path.join(root, edited);
  await writeFile(file, `${await readFile(file, 'utf8')}\nAn added closing sentence with new words.\n`);
  await updateFacts(root, sources, settings);
  return before === (await others());
}

/**
 * Planted pages: for each source, a page of its own sentences (supported) and of the
 * same sentences with a number, a name or a negation changed (unsupported).
 */
async function measureGrounding(root: string, sources: string[]): Promise<FactsMeasurement['grounding']> {
  const result = { altered: 0, alteredFlagged: 0, supported: 0, supportedFlagged: 0 };
  const store = await FactStore.open(factsDbFile(root), { readonly: true });
  try {
    for (const source of sources) {
      const facts: CandidateFact[] = store.factsOfSources([source]);
      const sentences = facts.map((f) => f.text).slice(0, 6);
      const altered = sentences.map(alter);
      const page = (lines: string[]): string => lines.join('\n\n');
      const supportedCheck = groundPage(page(sentences), facts);
      result.supported += supportedCheck.sentences.length;
      result.supportedFlagged += supportedCheck.sentences.filter((s) => s.problem).length;
      const alteredCheck = groundPage(page(altered), facts);
      result.altered += alteredCheck.sentences.length;
      result.alteredFlagged += alteredCheck.sentences.filter((s) => s.problem).length;
    }
  } finally {
    store.close();
  }
  return result;
}

const NAMES = ['Meridian', 'Castellan', 'Okonkwo', 'Hartwell'];

/** One deterministic falsification: a number changed, else a name replaced, else a negation added. */
export function alter(sentence: string): string {
  const number = /\d+/.exec(sentence);
  if (number) return `${sentence.slice(0, number.index)}${Number(number[0]) + 7}${sentence.slice(number.index + number[0].length)}`;
  const name = /(?<=\s)\p{Lu}[\p{L}-]{2,}/u.exec(sentence);
  if (name) return `${sentence.slice(0, name.index)}${NAMES[sentence.length % NAMES.length]}${sentence.slice(name.index + name[0].length)}`;
  const verb = /\b(is|are|was|were|can|does|do|did|has|have|had|will|may)\b/.exec(sentence);
  if (verb) return `${sentence.slice(0, verb.index + verb[0].length)} not${sentence.slice(verb.index + verb[0].length)}`;
  return `It is not true that ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
}
