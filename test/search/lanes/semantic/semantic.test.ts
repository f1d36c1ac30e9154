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
