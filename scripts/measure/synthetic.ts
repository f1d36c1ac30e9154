import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serialisePage } from '../../src/wiki/page.js';
import { seededRandom } from '../../src/search/kernels/linalg.js';

/**
 * Deterministic synthetic wikis for benchmarks: pages on a few hundred topics, each
 * mixing its topic's words with a Zipf-distributed background vocabulary, with titles,
 * summaries, tags, refs and inline links like the pages a model writes (about 250 words
 * of body). The same size and seed always give the same files.
 */
export interface SyntheticPage {
  path: string;
  key: string;
  content: string;
}

export interface SyntheticWiki {
  pages: SyntheticPage[];
  queries: string[];
}

const SYLLABLES = ['ka', 'to', 'ri', 'men', 'sa', 'lo', 'ver', 'qui', 'dan', 'pe', 'ro', 'tion', 'al', 'ex', 'in', 'com', 'pro', 'ul', 'is', 'ent', 'mar', 'tel', 'gra', 'phy', 'ost', 'un', 'bi', 'cor'];
const FOLDERS = ['wiki/concepts', 'wiki/entities', 'wiki/sources'];
const VOCABULARY = 20_000;
const TOPIC_WORDS = 40;

class Sampler {
  readonly random: () => number;
  readonly words: string[];
  private readonly cumulative: Float64Array;

  constructor(seed: number) {
    this.random = seededRandom(seed);
    const seen = new Set<string>();
    this.words = [];
    while (this.words.length < VOCABULARY) {
      let word = '';
      const parts = 2 + Math.floor(this.random() * 3);
      for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(this.random() * SYLLABLES.length)];
      if (!seen.has(word)) {
        seen.add(word);
        this.words.push(word);
      }
    }
    this.cumulative = new Float64Array(VOCABULARY);
    let total = 0;
    for (let r = 0; r < VOCABULARY; r++) {
      total += 1 / Math.pow(r + 1, 1.05);
      this.cumulative[r] = total;
    }
    for (let r = 0; r < VOCABULARY; r++) this.cumulative[r] = (this.cumulative[r] ?? 0) / total;
  }

  int(limit: number): number {
    return Math.floor(this.random() * limit);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** A background word, Zipf-distributed. */
  zipf(): string {
    const u = this.random();
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] ?? 1) < u) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo] ?? '';
  }
}

function sentence(sampler: Sampler, topic: readonly string[], length: number, topicShare: number): string {
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(sampler.random() < topicShare ? sampler.pick(topic) : sampler.zipf());
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export function syntheticWiki(size: number, seed = 42): SyntheticWiki {
  const sampler = new Sampler(seed);
  const topicCount = Math.max(20, Math.round(size / 40));
  const topics = Array.from({ length: topicCount }, () =>
    Array.from({ length: TOPIC_WORDS }, () => sampler.words[200 + sampler.int(VOCABULARY - 200)] ?? ''),
  );
  const pages: SyntheticPage[] = [];
  const keys: string[] = [];
  for (let i = 0; i < size; i++) {
    const topic = sampler.pick(topics);
    const titleWords = Array.from({ length: 2 + sampler.int(3) }, () => sampler.pick(topic));
    const key = `${titleWords.slice(0, 2).join('-')}-${i}`;
    const refs = keys.length ? Array.from({ length: sampler.int(3) }, () => sampler.pick(keys)) : [];
    const paragraphs: string[] = [];
    const paragraphCount = 3 + sampler.int(3);
    for (let p = 0; p < paragraphCount; p++) {
      const sentences = Array.from({ length: 3 + sampler.int(3) }, () => sentence(sampler, topic, 8 + sampler.int(10), 0.3));
      if (keys.length && sampler.random() < 0.5) sentences.push(`See [[${sampler.pick(keys)}]].`);
      paragraphs.push(sentences.join(' '));
    }
    const frontmatter = {
      title: titleWords.map((w) => `${w.charAt(0).toUpperCase()}${w.slice(1)}`).join(' '),
      summary: sentence(sampler, topic, 10 + sampler.int(6), 0.5),
      tags: [...new Set([sampler.pick(topic), sampler.pick(topic)])],
      refs: [...new Set(refs)],
      created: '2026-01-01',
      updated: '2026-01-01',
    };
    const folder = FOLDERS[i % FOLDERS.length] ?? 'wiki/concepts';
    pages.push({ path: `${folder}/${key}.md`, key, content: serialisePage(frontmatter, `\n# ${frontmatter.title}\n\n${paragraphs.join('\n\n')}\n`) });
    keys.push(key);
  }
  const queries = Array.from({ length: 200 }, () => {
    const topic = sampler.pick(topics);
    const words = Array.from({ length: 1 + sampler.int(3) }, () => sampler.pick(topic));
    if (sampler.random() < 0.3) words.push(sampler.zipf());
    return words.join(' ');
  });
  return { pages, queries };
}

export async function writeSyntheticWiki(root: string, wiki: SyntheticWiki): Promise<void> {
  for (const folder of FOLDERS) await mkdir(path.join(root, folder), { recursive: true });
  const batch = 256;
  for (let i = 0; i < wiki.pages.length; i += batch) {
    await Promise.all(wiki.pages.slice(i, i + batch).map((page) => writeFile(path.join(root, page.path), page.content)));
  }
}
