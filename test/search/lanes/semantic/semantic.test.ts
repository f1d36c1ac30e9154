import { describe, expect, it } from 'vitest';
import { analyze } from '../../../../src/search/text/analyze.js';
import { LsaEmbedder } from '../../../../src/search/lanes/semantic/embedder.js';
import { SemanticLane, type PageToEmbed } from '../../../../src/search/lanes/semantic/semantic.js';
import { TOPIC_TEXTS } from '../../helpers.js';

const TEXTS = [...TOPIC_TEXTS, 'comet telescope tail orbit'];

const pages = (): PageToEmbed[] => TEXTS.map((text, slot) => ({ slot, input: { text, terms: analyze(text) } }));
const identity = Int32Array.from(TEXTS, (_, i) => i);

async function trainedLane(ahead?: (lane: SemanticLane) => { slots: number[]; vectors: Promise<Array<Float32Array | undefined>> }): Promise<SemanticLane> {
  const lane = new SemanticLane(new LsaEmbedder(8));
  await lane.train(pages(), undefined, ahead?.(lane));
  return lane;
}

describe('SemanticLane.train with pages embedded elsewhere', () => {
  it('takes the vectors made elsewhere for those pages and embeds only the rest itself', async () => {
    const plain = await trainedLane();
    const reference = new LsaEmbedder(8);
    await reference.train(pages().map((page) => page.input));
    const slots = [0, 4, 8];
    const vectors = reference.embedDocuments(slots.map((slot) => pages()[slot]!.input));
    const withAhead = await trainedLane(() => ({ slots, vectors }));
    expect(withAhead.encode(identity, TEXTS.length)).toEqual(plain.encode(identity, TEXTS.length));
  });

  it('embeds those pages itself when the vectors never come', async () => {
    const plain = await trainedLane();
    const failed = await trainedLane(() => ({ slots: [1, 2], vectors: Promise.reject(new Error('worker gone')) }));
    expect(failed.status()).toBe('ok');
    expect(failed.encode(identity, TEXTS.length)).toEqual(plain.encode(identity, TEXTS.length));
  });

  it('a wrong number of vectors is not trusted either', async () => {
    const plain = await trainedLane();
    const short = await trainedLane(() => ({ slots: [1, 2], vectors: Promise.resolve([undefined]) }));
    expect(short.encode(identity, TEXTS.length)).toEqual(plain.encode(identity, TEXTS.length));
  });
});

describe('SemanticLane.similarities: feedback pages weighted by rank', () => {
  const query = 'telescope orbit';
  const feedbackOf = async (lane: SemanticLane, slots: number[], rankDecay?: number): Promise<number[]> =>
    Array.from((await lane.similarities(query, analyze(query), { slots, weight: 2, rankDecay })).similarities!);

  it.each([
    ['without decay, the order of the pages does not matter', 0, [1, 5], [5, 1], true],
    ['with decay, the first page counts more', 0.5, [1, 5], [5, 1], false],
    ['with a very steep decay, only the first page counts', 1e12, [1, 5], [1], true],
    ['with no decay given, all pages count alike', undefined, [1, 5], [5, 1], true],
  ])('%s', async (_case, rankDecay, slots, other, same) => {
    const lane = await trainedLane();
    const a = await feedbackOf(lane, slots, rankDecay);
    const b = await feedbackOf(lane, other, rankDecay);
    const close = a.every((value, i) => Math.abs(value - b[i]!) < 1e-6);
    expect(close).toBe(same);
  });
});
