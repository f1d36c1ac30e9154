import { describe, expect, it } from 'vitest';
import { analyze } from '../../../../src/search/text/analyze.js';
import { LsaModel, termIdPages, trainLsa, trainingSample } from '../../../../src/search/lanes/semantic/lsa.js';
import { weightedRows } from '../../../../src/search/lanes/semantic/lsa-train.js';
import { LsaEmbedder } from '../../../../src/search/lanes/semantic/embedder.js';
import { TOPIC_TEXTS } from '../../helpers.js';

const PAGES = TOPIC_TEXTS.map((text) => analyze(text));

const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

describe('LsaModel', () => {
  const options = { dimensions: 128, maxTrainingPages: 100, maxVocabulary: 1000, powerIterations: 2, seed: 1, rowNormPower: 0.5, sigmaPower: 0.75 };

  it('keeps far fewer dimensions than pages, so it generalises', () => {
    const model = LsaModel.train(PAGES, options);
    expect(model?.dimensions).toBe(2);
  });

  it('embeds to unit vectors in which same-topic pages are closer than others', () => {
    const model = LsaModel.train(PAGES, options);
    const car = model?.embed(analyze('car'));
    const automobile = model?.embed(analyze('automobile wheels'));
    const bread = model?.embed(analyze('bread oven'));
    expect(car && automobile && bread).toBeTruthy();
    if (!car || !automobile || !bread) return;
    expect(Math.hypot(...car)).toBeCloseTo(1, 5);
    expect(cosine(car, automobile)).toBeGreaterThan(cosine(car, bread));
  });

  it('gives nothing for words it never saw, and is deterministic', () => {
    const a = LsaModel.train(PAGES, options);
    const b = LsaModel.train(PAGES, options);
    expect(a?.embed(analyze('zeppelin'))).toBeUndefined();
    expect(Array.from(a?.embed(analyze('telescope orbit')) ?? [])).toEqual(Array.from(b?.embed(analyze('telescope orbit')) ?? []));
  });

  it('survives a round trip through its persisted form', () => {
    const model = LsaModel.train(PAGES, options);
    if (!model) throw new Error('no model');
    const restored = LsaModel.decode(model.encode());
    expect(Array.from(restored.embed(analyze('pastry butter')) ?? [])).toEqual(Array.from(model.embed(analyze('pastry butter')) ?? []));
  });

  it('embeds many pages at once exactly as one by one, trained or loaded', () => {
    const model = LsaModel.train(PAGES, options);
    if (!model) throw new Error('no model');
    const loaded = LsaModel.decode(model.encode());
    const pages = [...PAGES, analyze('zeppelin'), analyze('car car car orbit')];
    const one = pages.map((page) => Array.from(model.embed(page) ?? []));
    expect(model.embedIds(termIdPages(pages)).map((v) => Array.from(v ?? []))).toEqual(one);
    expect(loaded.embedIds(termIdPages(pages)).map((v) => Array.from(v ?? []))).toEqual(one);
  });

  it('declines to train on fewer than three pages', () => {
    expect(LsaModel.train(PAGES.slice(0, 2), options)).toBeUndefined();
  });
});

describe('LSA training on a sample corpus (what a build worker receives)', () => {
  it('trains exactly the model the whole corpus trains: terms, idf and basis bit for bit', () => {
    const options = { dimensions: 4, maxTrainingPages: 6, maxVocabulary: 12, powerIterations: 2, seed: 7, rowNormPower: 0.5, sigmaPower: 0.75 };
    const corpus = termIdPages([...PAGES, ...PAGES.slice(0, 3).map((page) => [...page].reverse())]);
    const whole = trainLsa(corpus, options);
    const sample = trainingSample(corpus, options);
    expect(sample.pages).toHaveLength(6);
    expect(sample.vocabulary.size).toBeLessThan(corpus.vocabulary.size);
    const fromSample = trainLsa(sample, options);
    expect(whole).toBeDefined();
    expect(fromSample?.terms).toEqual(whole?.terms);
    expect(fromSample?.dimensions).toBe(whole?.dimensions);
    expect(fromSample?.trainedPages).toBe(6);
    expect(Array.from(fromSample?.idf ?? [])).toEqual(Array.from(whole?.idf ?? []));
    expect(Array.from(fromSample?.basis ?? [])).toEqual(Array.from(whole?.basis ?? []));
  });
});

describe('LSA weighting', () => {
  const base = { dimensions: 3, maxTrainingPages: 100, maxVocabulary: 1000, powerIterations: 6, seed: 5, rowNormPower: 1 };
  const columns = (basis: Float32Array, terms: number, k: number): number[][] =>
    Array.from({ length: k }, (_, j) => Array.from({ length: terms }, (_, t) => basis[t * k + j]!));
  const dot = (a: number[], b: number[]): number => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

  it('scales each singular direction by σ^(p − 1): orthonormal at p = 1, and |v(p = 0.5)| = |v(p = 0.75)|² column by column', () => {
    const corpus = termIdPages(PAGES);
    const at = (sigmaPower: number) => {
      const parts = trainLsa(corpus, { ...base, sigmaPower });
      if (!parts) throw new Error('no model');
      return columns(parts.basis, parts.terms.length, parts.dimensions);
    };
    const [plain, threeQuarters, half] = [at(1), at(0.75), at(0.5)];
    plain.forEach((column, j) => {
      expect(dot(column, column)).toBeCloseTo(1, 4);
      for (let i = j + 1; i < plain.length; i++) expect(dot(column, plain[i]!)).toBeCloseTo(0, 4);
      expect(Math.sqrt(dot(half[j]!, half[j]!))).toBeCloseTo(dot(threeQuarters[j]!, threeQuarters[j]!), 3);
    });
    // σ descends, so σ^(p − 1) with p < 1 grows: the later directions count for more than in plain LSA.
    const norms = threeQuarters.map((column) => dot(column, column));
    expect(norms[norms.length - 1]! / norms[0]!).toBeGreaterThan(1.05);
  });

  it('divides each training row by its length to the power given: unit rows at 1, √length at 0.5', () => {
    const pages = [[0, 1], [0, 1, 2, 2, 3, 3, 3]];
    const rowOf = Int32Array.from([0, 1, 2, 3]);
    const idf = Float32Array.from([1, 2, 1, 0.5]);
    const rowLength = (rows: ReturnType<typeof weightedRows>, r: number): number =>
      Math.hypot(...Array.from(rows.values.subarray(rows.rowStart[r]!, rows.rowStart[r + 1]!)));
    const raw = weightedRows(pages, rowOf, idf, 0);
    const unit = weightedRows(pages, rowOf, idf, 1);
    const half = weightedRows(pages, rowOf, idf, 0.5);
    for (const r of [0, 1]) {
      expect(rowLength(unit, r)).toBeCloseTo(1, 10);
      expect(rowLength(half, r)).toBeCloseTo(Math.sqrt(rowLength(raw, r)), 10);
    }
    expect(rowLength(half, 1)).toBeGreaterThan(rowLength(half, 0));
  });

  it('names every training setting in the embedder\'s key, so vectors made under other settings are rebuilt', () => {
    const keys = [new LsaEmbedder(128), new LsaEmbedder(128, { sigmaPower: 1 }), new LsaEmbedder(128, { rowNormPower: 1 }), new LsaEmbedder(64)].map((e) => e.configKey);
    expect(new Set(keys).size).toBe(keys.length);
    // The key of the version before idf became log((n + 1) / df): its saved vectors are not reused.
    expect(keys).not.toContain('builtin-lsa:128:2500:30000:2:20251121');
  });
});
