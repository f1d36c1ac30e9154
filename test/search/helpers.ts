import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configSchema, type WikiConfig } from '../../src/config/schema.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { serialisePage } from '../../src/wiki/page.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';
import type { Schema } from '../../src/wiki/contract.js';
import { seededRandom } from '../../src/search/kernels/linalg.js';

/** A page file's text with the usual frontmatter. */
export function pageText(title: string, summary: string, body: string, extra: Record<string, unknown> = {}): string {
  return serialisePage({ title, summary, ...extra }, `\n${body}\n`);
}

export interface TestWorkspace {
  root: string;
  schema: Schema;
  write(pagePath: string, content: string): Promise<void>;
  remove(pagePath: string): Promise<void>;
}

/** A fresh workspace from the real templates, with `pages` (path → text) written. */
export async function workspaceWith(pages: Record<string, string>): Promise<TestWorkspace> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-search-'));
  await initWorkspace(root);
  const ws: TestWorkspace = {
    root,
    schema: await loadSchema(root),
    async write(pagePath, content) {
      await mkdir(path.dirname(path.join(root, pagePath)), { recursive: true });
      await writeFile(path.join(root, pagePath), content);
    },
    async remove(pagePath) {
      await rm(path.join(root, pagePath));
    },
  };
  for (const [pagePath, content] of Object.entries(pages)) await ws.write(pagePath, content);
  return ws;
}

export function configWith(search: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): WikiConfig {
  return configSchema.parse({ ...rest, search });
}

/** Pages on distinct topics, enough for the built-in embedder to train on. */
export const TOPIC_PAGES: Record<string, string> = {
  'wiki/concepts/attention.md': pageText(
    'Scaled dot-product attention',
    'How transformers weigh tokens against each other',
    'Attention computes a softmax over query and key dot products and mixes the values. See [[multi-head-attention]].',
    { tags: ['transformers'] },
  ),
  'wiki/concepts/multi-head-attention.md': pageText(
    'Multi-head attention',
    'Several attention heads in parallel',
    'Multi-head attention runs several [[attention]] heads side by side and concatenates their outputs.',
  ),
  'wiki/concepts/sourdough.md': pageText(
    'Sourdough bread',
    'Bread leavened by a wild yeast starter',
    'A sourdough starter ferments flour and water; the dough rises slowly and bakes into a sour loaf.',
  ),
  'wiki/concepts/baking-soda.md': pageText(
    'Baking soda',
    'A chemical leavening agent',
    'Baking soda reacts with acid in the dough and releases carbon dioxide so cakes rise in the oven.',
  ),
  'wiki/entities/hubble.md': pageText(
    'Hubble Space Telescope',
    'An orbiting optical telescope',
    'The Hubble telescope observes distant galaxies and nebulae from low Earth orbit.',
  ),
  'wiki/entities/jwst.md': pageText(
    'James Webb Space Telescope',
    'An infrared space telescope',
    'Webb observes the early universe in infrared light from an orbit around the second Lagrange point.',
  ),
};

/** Short texts on three topics (cars, baking, astronomy): the smallest corpus an LSA model learns from. */
export const TOPIC_TEXTS = [
  'car engine fuel road wheels automobile',
  'automobile brakes wheels road car',
  'car tyres road wheels automobile',
  'bread dough oven yeast flour',
  'cake flour oven sugar eggs',
  'pastry butter flour oven',
  'moon telescope orbit night',
  'mars telescope orbit planet',
];

/** A dense block of `size` values in [-0.5, 0.5), the same for the same seed. */
export function randomBlock(seed: number, size: number): Float64Array {
  const random = seededRandom(seed);
  return Float64Array.from({ length: size }, () => random() - 0.5);
}

/** Equal to the last bit, element by element (NaN equals NaN, 0 differs from -0). */
export function sameBits(expected: Float64Array, actual: Float64Array): boolean {
  return expected.length === actual.length && expected.every((value, i) => Object.is(value, actual[i]));
}

/**
 * 24 pages on four topics, six facets each: enough pages with a title of two terms and a
 * summary for the semantic lane's strength to be measured (at least 20).
 */
export const FACETED_PAGES: Record<string, string> = Object.fromEntries(
  [
    ['attention', 'transformer tokens softmax query key values heads'],
    ['sourdough', 'bread starter yeast flour crust oven'],
    ['glider', 'thermals soaring wings lift pilot ridge'],
    ['telescope', 'comet orbit lens mirror star night'],
  ].flatMap(([topic, words]) =>
    ['history', 'practice', 'theory', 'tools', 'mistakes', 'examples'].map((facet, i) => [
      `wiki/concepts/${topic}-${facet}.md`,
      pageText(`${topic} ${facet}`, `The ${facet} of ${topic}`, `${words!.split(' ').slice(i % 3).join(' ')} ${facet}.`),
    ]),
  ),
);
