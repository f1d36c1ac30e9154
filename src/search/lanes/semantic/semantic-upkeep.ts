import { pageDocument } from '../../text/document.js';
import type { SearchEngine } from '../../engine.js';
import { analysePage } from '../../text/page-analysis.js';
import { readPage } from '../../../wiki/page-read.js';
import type { PageToEmbed } from './semantic.js';
import { analyze } from '../../text/analyze.js';
import type { LexicalParams } from '../lexical/lexical.js';
import { STRENGTH_PROBES, rankOf, semanticStrength, strengthProbes } from '../../fusion/semantic-strength.js';

/**
 * The semantic lane's upkeep after pages change (see live-index.ts): fold new pages in,
 * retrain a corpus embedder that has drifted (re-embedding every page), and retry pages an
 * embeddings endpoint refused. Pages not at hand are read for their terms: from disk under
 * a workspace root, or through the reader given (the database store's rows).
 */

/** A workspace root (pages read from disk) or a reader of a page's text by path. */
export type PageSource = string | ((pagePath: string) => string | undefined);

function readerOf(source: PageSource): (pagePath: string) => string | undefined {
  return typeof source === 'string' ? (pagePath) => readPage(source, pagePath) : source;
}

/** Embed `work` (pages just indexed), then retrain or retry as the lane needs. */
export async function updateSemantic(engine: SearchEngine, root: PageSource, work: PageToEmbed[]): Promise<void> {
  const semantic = engine.semantic;
  if (!('lane' in semantic)) return;
  const lane = semantic.lane;
  // An untrained embedder skips `embed`; a trained one folds the pages in first, and
  // retrains (re-embedding every page) once the folded-in share says it has drifted.
  await lane.embed(work);
  if (lane.needsTraining(engine.docs.liveCount)) {
    await lane.train(await everyPageToEmbed(engine, root, work));
    return;
  }
  await retryPending(engine, root);
}

/** Embed again the pages an endpoint refused before. */
export async function retryPending(engine: SearchEngine, root: PageSource): Promise<void> {
  const semantic = engine.semantic;
  if (!('lane' in semantic) || semantic.lane.pendingCount === 0) return;
  const pages: PageToEmbed[] = [];
  for (const slot of semantic.lane.pendingSlots()) {
    const page = await readPageToEmbed(engine, root, slot);
    if (page) pages.push(page);
  }
  await semantic.lane.embed(pages);
}

async function everyPageToEmbed(engine: SearchEngine, root: PageSource, known: readonly PageToEmbed[]): Promise<PageToEmbed[]> {
  const bySlot = new Map(known.map((page) => [page.slot, page]));
  const pages: PageToEmbed[] = [];
  for (const record of engine.docs.records()) {
    const page = bySlot.get(record.slot) ?? (await readPageToEmbed(engine, root, record.slot));
    if (page) pages.push(page);
  }
  return pages.sort((a, b) => a.slot - b.slot);
}

async function readPageToEmbed(engine: SearchEngine, root: PageSource, slot: number): Promise<PageToEmbed | undefined> {
  const record = engine.docs.at(slot);
  if (!record) return undefined;
  const content = readerOf(root)(record.path);
  if (content === undefined) return undefined;
  return { slot, input: analysePage(pageDocument(record.path, content, engine.language)).embedding };
}

/**
 * After the semantic lane trained: how well it finds pages from their titles against the
 * lexical lane (`fusion/semantic-strength.ts`), kept with the lane. Nothing otherwise.
 */
export async function measureSemanticStrength(engine: SearchEngine, lexical: LexicalParams): Promise<void> {
  const semantic = engine.semantic;
  if (!('lane' in semantic) || !semantic.lane.strengthToMeasure) return;
  const { lane } = semantic;
  const { docs } = engine;
  const probes = strengthProbes([...docs.records()].sort((a, b) => a.slot - b.slot), (title) => analyze(title).length, STRENGTH_PROBES);
  const strength = await semanticStrength(
    probes,
    (probe) => {
      const { slots, scores } = engine.lexical.scoreSlots(analyze(probe.title, docs.at(probe.slot)?.lang), lexical, docs);
      return rankOf(probe.slot, scores, slots);
    },
    (probe) => lane.rankFor(probe.title, analyze(probe.title, docs.at(probe.slot)?.lang), probe.slot, (slot, scores) => rankOf(slot, scores)),
  );
  lane.setStrength(strength);
}
