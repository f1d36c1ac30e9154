import { describe, expect, it } from 'vitest';
import { pageDocument } from '../../src/search/text/document.js';
import { LsaEmbedder, type Embedder, type EmbeddingInput } from '../../src/search/lanes/semantic/embedder.js';
import { SearchEngine, type SearchParams } from '../../src/search/engine.js';
import { SemanticLane } from '../../src/search/lanes/semantic/semantic.js';
import { measureSemanticStrength } from '../../src/search/lanes/semantic/semantic-upkeep.js';
import { DEFAULT_TUNING } from '../../src/search/fusion/tuning.js';
import { FACETED_PAGES, TOPIC_PAGES } from './helpers.js';

const params: SearchParams = {
  weights: { lexical: 1.5, semantic: 2, token: 0.5 },
  k: 60,
  pool: 25,
  lexical: { k1: 1.2, b: 0.75, ...DEFAULT_TUNING.lexical },
  feedback: DEFAULT_TUNING.feedback,
  fusion: DEFAULT_TUNING.fusion,
  semanticScale: DEFAULT_TUNING.semanticScale,
};

/** An embedder whose endpoint is down. */
class BrokenEmbedder implements Embedder {
  readonly description = 'broken';
  readonly configKey = 'broken';
  async embedDocuments(_inputs: readonly EmbeddingInput[]): Promise<Array<Float32Array | undefined>> {
    throw new Error('connect ECONNREFUSED 127.0.0.1:9');
  }
  async embedQuery(): Promise<Float32Array | undefined> {
    throw new Error('connect ECONNREFUSED 127.0.0.1:9');
  }
}

/** An embedder that works for pages but fails on queries. */
class QueryFailingEmbedder implements Embedder {
  readonly description = 'half broken';
  readonly configKey = 'half';
  async embedDocuments(inputs: readonly EmbeddingInput[]): Promise<Array<Float32Array | undefined>> {
    return inputs.map(() => Float32Array.from([1, 0]));
  }
  async embedQuery(): Promise<Float32Array | undefined> {
    throw new Error('429 rate limited');
  }
}

async function engineWith(embedder: Embedder): Promise<SearchEngine> {
  const engine = SearchEngine.empty({ lane: new SemanticLane(embedder) });
  const work = Object.entries(TOPIC_PAGES).map(([path, text]) => engine.indexPage(pageDocument(path, text), { mtimeMs: 1, size: 1 }, 1));
  await engine.embed(work);
  return engine;
}

describe('SearchEngine: a failed lane is dropped, not zeroed', () => {
  it.each([
    ['pages could not be embedded', new BrokenEmbedder(), /^failed: connect ECONNREFUSED/],
    ['the query could not be embedded', new QueryFailingEmbedder(), /^failed: 429 rate limited/],
  ])('when %s, the semantic lane reports failed and the others still answer', async (_case, embedder, status) => {
    const engine = await engineWith(embedder);
    const result = await engine.search('telescope', 5, params);
    expect(result.lanes.semantic).toMatch(status);
    expect(result.lanes.lexical).toBe('ok');
    expect(result.pages.length).toBeGreaterThan(0);
    for (const page of result.pages) {
      expect(page.lanes.semantic).toBeUndefined();
      expect(page.score).toBeCloseTo((page.contributions.lexical ?? 0) + (page.contributions.token ?? 0), 12);
    }
    // Ranks are the remaining lanes' own ranks: the top page is ranked 1 by lexical.
    expect(result.pages[0]?.lanes.lexical).toBe(1);
  });

  it('keeps pages an endpoint refused pending until it answers again', async () => {
    let down = true;
    const embedder: Embedder = {
      description: 'flaky',
      configKey: 'flaky',
      async embedDocuments(inputs) {
        if (down) throw new Error('503 unavailable');
        return inputs.map((input) => Float32Array.from(input.text.includes('telescope') ? [1, 0] : [0, 1]));
      },
      async embedQuery(query) {
        return Float32Array.from(query.includes('telescope') ? [1, 0] : [0, 1]);
      },
    };
    const lane = new SemanticLane(embedder);
    const engine = SearchEngine.empty({ lane });
    const work = Object.entries(TOPIC_PAGES).map(([path, text]) => engine.indexPage(pageDocument(path, text), { mtimeMs: 1, size: 1 }, 1));
    await engine.embed(work);
    expect(lane.pendingCount).toBe(work.length);
    expect(lane.status()).toMatch(/^failed: 503/);
    down = false;
    await engine.embed(work.filter((page) => lane.pendingSlots().includes(page.slot)));
    expect(lane.pendingCount).toBe(0);
    const result = await engine.search('telescope', 3, params);
    expect(result.lanes.semantic).toBe('ok');
    expect(result.pages.some((page) => page.lanes.semantic === 1)).toBe(true);
  });
});

describe('SearchEngine.indexPages: a full build in bulk', () => {
  const pages = [
    ...Object.entries(TOPIC_PAGES),
    ['wiki/concepts/gpt-4o.md', '---\ntitle: GPT-4o and C++ notes\ntags: [models, c++]\n---\nGPT-4o runs fast. Naïve café 注意力机制 notes.\n'],
    ['wiki/concepts/empty.md', '# Nothing much\n'],
  ].map(([path, text]) => ({ doc: pageDocument(path ?? '', text ?? ''), stat: { mtimeMs: 1, size: 1 } }));
  const queries = ['attention heads', 'gpt-4o', 'c++ models', 'transformer tokens', '注意力', 'cafe', 'nothing', 'the of'];
  const laneOf = (engine: SearchEngine): SemanticLane => {
    if (!('lane' in engine.semantic)) throw new Error('no semantic lane');
    return engine.semantic.lane;
  };

  it('answers every query as indexing the pages one by one does, in every lane', async () => {
    const make = (): SearchEngine => SearchEngine.empty({ lane: new SemanticLane(new LsaEmbedder(4)) });
    const one = make();
    await laneOf(one).train(pages.map(({ doc, stat }) => one.indexPage(doc, stat, 1)));
    const bulk = make();
    await laneOf(bulk).train(bulk.indexPages(pages, 1));
    expect(laneOf(bulk).status()).toBe('ok');
    for (const query of queries) expect(await bulk.search(query, 10, params)).toEqual(await one.search(query, 10, params));
    const more = pageDocument('wiki/concepts/later.md', '# Later\nAttention again.\n');
    for (const engine of [one, bulk]) engine.indexPages([{ doc: more, stat: { mtimeMs: 2, size: 2 } }], 2);
    for (const query of queries) expect(await bulk.search(query, 10, params)).toEqual(await one.search(query, 10, params));
  });
});

describe('SearchEngine: the lexical lane’s remembered slots', () => {
  const lexicalFirst: SearchParams = { ...params, weights: { lexical: 1, semantic: 0, token: 0.2 } };
  const queries = ['attention heads', 'glider thermals', 'attention', 'telescope bread'];

  it('follow pages moved by a compaction and re-indexed: a searched engine answers as one never searched', async () => {
    const searched = SearchEngine.empty({ off: 'not in this test' });
    const fresh = SearchEngine.empty({ off: 'not in this test' });
    const gliders = Array.from({ length: 6 }, (_, i): [string, string] => [
      `wiki/notes/glider-${i}.md`,
      `# Glider note ${i}\n${'Gliders climb in thermals. '.repeat(i + 1)}Attention to the ${i % 2 ? 'telescope' : 'bread'}.\n`,
    ]);
    const entries = [...gliders, ...Object.entries(TOPIC_PAGES)];
    for (const engine of [searched, fresh]) for (const [path, text] of entries) engine.indexPage(pageDocument(path, text), { mtimeMs: 1, size: 1 }, 1);
    for (const query of queries) await searched.search(query, 10, lexicalFirst);
    // The first page goes and the hole is closed (every later page moves down a slot);
    // another page is indexed again (a new slot at the end).
    const [first, second] = entries;
    for (const engine of [searched, fresh]) {
      engine.removePage(first![0]);
      engine.compact();
      engine.indexPage(pageDocument(second![0], `${second![1]}\nAttention heads again.\n`), { mtimeMs: 2, size: 2 }, 2);
    }
    let found = 0;
    for (const query of queries) {
      const answer = await searched.search(query, 10, lexicalFirst);
      found += answer.pages.filter((page) => page.lanes.lexical !== undefined).length;
      expect(answer).toEqual(await fresh.search(query, 10, lexicalFirst));
    }
    expect(found).toBeGreaterThan(3);
  });
});

describe('SearchEngine: the semantic lane’s strength in the corpus', () => {
  const strengthParams: SearchParams = { ...params, semanticStrength: { reference: 0.5, exponent: 2 } };
  const laneOf = (engine: SearchEngine): SemanticLane => {
    if (!('lane' in engine.semantic)) throw new Error('no semantic lane');
    return engine.semantic.lane;
  };
  const CORPUS = Object.entries(FACETED_PAGES);
  async function trainedEngine(pages: ReadonlyArray<readonly [string, string]> = CORPUS): Promise<SearchEngine> {
    const engine = SearchEngine.empty({ lane: new SemanticLane(new LsaEmbedder(4)) });
    const work = pages.map(([path, text]) => engine.indexPage(pageDocument(path, text), { mtimeMs: 1, size: 1 }, 1));
    await laneOf(engine).train(work);
    return engine;
  }

  it('is measured once after training, kept through a save and load, and not measured again without training', async () => {
    const engine = await trainedEngine();
    expect(laneOf(engine).strength).toBeUndefined();
    await measureSemanticStrength(engine, params.lexical);
    const strength = laneOf(engine).strength;
    expect(strength).toBeGreaterThan(0);
    expect(laneOf(engine).strengthToMeasure).toBe(false);
    const { engine: loaded } = SearchEngine.decode(engine.encode(), { lane: new SemanticLane(new LsaEmbedder(4)) });
    expect(laneOf(loaded).strength).toBe(strength);
    expect(laneOf(loaded).strengthToMeasure).toBe(false);
    await laneOf(loaded).train(CORPUS.map(([path, text]) => loaded.indexPage(pageDocument(path, text), { mtimeMs: 2, size: 2 }, 2)));
    expect(laneOf(loaded).strength).toBeUndefined();
    expect(laneOf(loaded).strengthToMeasure).toBe(true);
  });

  it('stays unknown in a wiki with fewer than 20 pages to probe, leaving the weight as configured', async () => {
    const engine = await trainedEngine(Object.entries(TOPIC_PAGES));
    await measureSemanticStrength(engine, params.lexical);
    expect(laneOf(engine).strength).toBeUndefined();
    for (const query of ['attention heads', 'bread']) expect(await engine.search(query, 10, strengthParams)).toEqual(await engine.search(query, 10, params));
  });

  it('scales the semantic contribution by (strength / reference)^exponent, the contributions still summing to the score', async () => {
    const engine = await trainedEngine();
    await measureSemanticStrength(engine, params.lexical);
    const strength = laneOf(engine).strength!;
    const scale = (Math.min(strength, 1) / 0.5) ** 2;
    expect(scale).not.toBeCloseTo(1, 3);
    let compared = 0;
    for (const query of ['attention heads', 'sourdough starter', 'comet telescope', 'glider thermals']) {
      const plain = await engine.search(query, 20, params);
      const scaled = await engine.search(query, 20, strengthParams);
      for (const page of scaled.pages) {
        expect(page.score).toBeCloseTo(Object.values(page.contributions).reduce((sum, share) => sum + (share ?? 0), 0), 12);
        const before = plain.pages.find((other) => other.record.path === page.record.path);
        if (before?.contributions.semantic !== undefined && page.contributions.semantic !== undefined) {
          expect(page.contributions.semantic).toBeCloseTo(before.contributions.semantic * scale, 9);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('leaves the configured weight as it is under an embedder not trained on the corpus (no strength)', async () => {
    const embedder: Embedder = {
      description: 'fixed',
      configKey: 'fixed',
      async embedDocuments(inputs) {
        return inputs.map((input) => Float32Array.from(input.text.includes('attention') ? [1, 0] : [0.6, 0.8]));
      },
      async embedQuery(query) {
        return Float32Array.from(query.includes('attention') ? [1, 0] : [0, 1]);
      },
    };
    const engine = await engineWith(embedder);
    await measureSemanticStrength(engine, params.lexical);
    expect(laneOf(engine).strength).toBeUndefined();
    for (const query of ['attention heads', 'bread']) expect(await engine.search(query, 10, strengthParams)).toEqual(await engine.search(query, 10, params));
  });
});
