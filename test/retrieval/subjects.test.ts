import { describe, expect, it } from 'vitest';
import { chainAmong, type PackHit, type PackView } from '../../src/retrieval/evidence-pack.js';
import { subjectSeeds, type PartSearch } from '../../src/retrieval/subjects.js';
import { parsePage, type Page } from '../../src/wiki/page.js';

function page(key: string, title: string, body: string): Page {
  return parsePage(`wiki/concepts/${key}.md`, `---\ntitle: ${title}\nsummary: About ${title}.\n---\n\n${body}\n`);
}

/** Two unrelated subjects: Rust async/await, and the Go checksum database. */
const PAGES = [
  page('async-await', 'Async/await in Rust', 'Rust async functions return futures; a failure is a Result.'),
  page('rust-future', 'Rust future', 'A Rust future does nothing until polled; async code awaits it.'),
  page('rust-generator', 'Rust generator', 'Rust async is built on generators.'),
  page('go-checksum-database', 'Go checksum database', 'The Go checksum database makes a missing answer a hard failure: trust nothing.'),
  page('trust-on-first-use', 'Trust on first use', 'Go trusted a first download blindly.'),
  page('hidden', 'Go checksum database secrets', 'Not for this asker.'),
];

const view: PackView = {
  page: (key) => (key === 'hidden' ? undefined : PAGES.find((p) => p.key === key)),
  body: (p) => p.body,
};

/** A search that answers from a table, recording what it was asked. */
function searchFrom(table: Record<string, string[]>): PartSearch & { asked: string[] } {
  const asked: string[] = [];
  const search = async (query: string, limit: number): Promise<PackHit[]> => {
    asked.push(query);
    return (table[query] ?? []).slice(0, limit).map((key) => ({ key }));
  };
  return Object.assign(search, { asked });
}

const rustFirst: PackHit[] = ['async-await', 'rust-future', 'rust-generator'].map((key) => ({ key }));

describe('subjectSeeds', () => {
  it('searches the part of a two-subject question the first pages leave out, and takes each part\'s best page in turn', async () => {
    const search = searchFrom({ 'go checksum databas trust': ['hidden', 'trust-on-first-use', 'go-checksum-database', 'rust-future'] });
    const question = "How do Go's checksum database and Rust's async/await each handle trust or failure, and what do they have in common?";
    const seeds = await subjectSeeds(question, rustFirst, view, 3, search);
    // "failure" is held by the Rust pages; "handle" and "common" relate subjects, they name none.
    expect(search.asked).toEqual(['go checksum databas trust']);
    // The page named by most of the part's terms comes first; a page the asker may not see never comes.
    expect(seeds.map((hit) => hit.key)).toEqual(['async-await', 'go-checksum-database', 'rust-future']);
  });

  it('gives every part its best page even with one seed', async () => {
    const search = searchFrom({ 'go checksum databas trust': ['go-checksum-database'] });
    const seeds = await subjectSeeds("How do Go's checksum database and Rust's async/await handle trust?", rustFirst, view, 1, search);
    expect(seeds.map((hit) => hit.key)).toEqual(['async-await', 'go-checksum-database']);
  });

  it('keeps a one-subject question\'s seeds and searches nothing more', async () => {
    const search = searchFrom({});
    const seeds = await subjectSeeds('Is a Rust future polled in async code?', rustFirst, view, 3, search);
    expect(seeds).toEqual(rustFirst);
    expect(search.asked).toEqual([]);
  });

  it('adds no part whose hits are not named by its terms, and nothing when the first search found nothing', async () => {
    const search = searchFrom({ 'quantum entangl': ['trust-on-first-use'] });
    const seeds = await subjectSeeds('Rust async and quantum entanglement?', rustFirst, view, 3, search);
    expect(seeds).toEqual(rustFirst);
    expect(await subjectSeeds('anything at all', [], view, 3, search)).toEqual([]);
  });
});

/** Three packages, one of them Bayesian; and a page on Bayesian inference in general. */
const PACKAGES = [
  page('brms', 'brms package', 'An R package that fits Bayesian multilevel models with Stan.'),
  page('lme4', 'lme4 package', 'An R package that fits mixed models by maximum likelihood.'),
  page('nlme', 'nlme package', 'An R package for linear and nonlinear mixed-effects models.'),
  page('bayesian-inference', 'Bayesian inference', 'Bayesian inference updates a prior with data; Stan samples the posterior.'),
  page('stan', 'Stan', 'A probabilistic programming language for Bayesian inference.'),
];
const packageView: PackView = { page: (key) => PACKAGES.find((p) => p.key === key), body: (p) => p.body };

describe('subjectSeeds over a list of subjects', () => {
  it('"which of these packages": every package the wiki names gets a seed, also those the question\'s search ranks low or misses', async () => {
    const first: PackHit[] = ['bayesian-inference', 'stan', 'brms'].map((key) => ({ key }));
    const search = searchFrom({ packages: ['brms', 'lme4', 'nlme', 'stan'] });
    const seeds = await subjectSeeds('Which of these packages support Bayesian inference, and how?', first, packageView, 3, search);
    expect(search.asked).toContain('packages');
    expect(seeds.map((hit) => hit.key).slice(0, 3).sort()).toEqual(['brms', 'lme4', 'nlme']);
    expect(seeds.map((hit) => hit.key)).toContain('bayesian-inference');
  });

  it('"compare A and B": each item gets its best page, even when one page mentions both', async () => {
    const first: PackHit[] = ['brms', 'stan'].map((key) => ({ key }));
    const search = searchFrom({ brm: ['brms', 'stan'], lme4: ['lme4', 'nlme'] });
    const seeds = await subjectSeeds('Compare brms and lme4', first, packageView, 2, search);
    expect(seeds.map((hit) => hit.key).slice(0, 2)).toEqual(['brms', 'lme4']);
  });

  it('a question that names no list searches nothing more for one', async () => {
    const search = searchFrom({});
    const first: PackHit[] = [{ key: 'stan' }];
    expect(await subjectSeeds('What language is Stan?', first, packageView, 3, search)).toEqual(first);
    expect(search.asked).toEqual([]);
  });
});

describe('chainAmong', () => {
  it('lists the first link to each of the keys from another of them, in the keys\' order', () => {
    const links: Record<string, Array<{ target: string; kind: string }>> = {
      a: [{ target: 'b', kind: 'ref' }, { target: 'x', kind: 'ref' }],
      b: [{ target: 'a', kind: 'inline' }, { target: 'c', kind: 'inline' }],
      c: [{ target: 'b', kind: 'ref' }],
    };
    expect(chainAmong(['a', 'b', 'c'], (key) => links[key] ?? [])).toEqual(['a --refs--> b', 'b --links--> a', 'b --links--> c']);
    expect(chainAmong(['a'], (key) => links[key] ?? [])).toEqual([]);
  });
});
