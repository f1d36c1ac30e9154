import { describe, expect, it } from 'vitest';
import { analyze } from '../../../../src/search/text/analyze.js';
import { LsaModel, termIdPages, trainLsa, trainingSample } from '../../../../src/search/lanes/semantic/lsa.js';
import { TOPIC_TEXTS } from '../../helpers.js';

const PAGES = TOPIC_TEXTS.map(analyze);

const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

describe('LsaModel', () => {
  const options = { dimensions: 128, maxTrainingPages: 100, maxVocabulary: 1000, powerIterations: 2, seed: 1 };

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
    const options = { dimensions: 4, maxTrainingPages: 6, maxVocabulary: 12, powerIterations: 2, seed: 7 };
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
