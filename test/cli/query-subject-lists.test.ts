import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { firstUserText } from '../helpers/fake-llm-record.js';
import { fakeServers, freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * A question that ranges over several subjects — "which of these packages …", "compare A
 * and B" — gets evidence for each within the same budget: a played question over three
 * papers got pages on "Bayesian" only, none for the packages that lack it.
 */

const serve = fakeServers();

async function packagesWorkspace(): Promise<string> {
  const root = await freshWorkspace();
  const files: Record<string, string> = {
    'raw/papers.md': '# Papers\n\nThree R packages.\n',
    'wiki/entities/brms.md': pageText('entity', 'brms', { title: 'brms package', summary: 'An R package for Bayesian multilevel models.', sources: ['raw/papers.md'], body: 'brms fits Bayesian multilevel models with Stan; its inference samples the posterior.' }),
    'wiki/entities/lme4.md': pageText('entity', 'lme4', { title: 'lme4 package', summary: 'An R package for mixed models.', sources: ['raw/papers.md'], body: 'lme4 fits linear mixed models by maximum likelihood.' }),
    'wiki/entities/glmmtmb.md': pageText('entity', 'glmmtmb', { title: 'glmmTMB package', summary: 'An R package for generalized mixed models.', sources: ['raw/papers.md'], body: 'glmmTMB fits zero-inflated mixed models with Template Model Builder.' }),
    'wiki/concepts/bayesian-inference.md': pageText('concept', 'bayesian-inference', { sources: ['raw/papers.md'], body: 'Bayesian inference updates a prior with data into a posterior.' }),
    'wiki/concepts/posterior-sampling.md': pageText('concept', 'posterior-sampling', { sources: ['raw/papers.md'], body: 'Bayesian inference by sampling the posterior with Markov chains.' }),
    'wiki/concepts/prior-choice.md': pageText('concept', 'prior-choice', { sources: ['raw/papers.md'], body: 'Choosing a prior for Bayesian inference.' }),
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

describe.each(['anthropic', 'openai'] as const)('wiki query over a list of subjects (%s wire)', (api) => {
  it('"which of these packages" brings every package page into the first request, also those that lack the property', async () => {
    const root = await packagesWorkspace();
    const server = await serve([{ text: 'Only [[brms]] is Bayesian; [[lme4]] and [[glmmtmb]] are not.' }]);
    const result = await runCli(['query', 'Which of these packages support Bayesian inference, and how?', '--json'], { cwd: root, env: server.env(api) });
    expect(result.code, result.stderr).toBe(0);
    const first = firstUserText(server.requests[0]!.body);
    for (const key of ['brms', 'lme4', 'glmmtmb']) expect(first).toMatch(new RegExp(`## \\[\\[${key}\\]\\] .*search match\\)`));
    const report = JSON.parse(result.stdout) as { evidence: { chars: number } };
    // Within the same budget (query.packTokens, 3,000 tokens by default).
    expect(report.evidence.chars).toBeLessThanOrEqual(12_000);
  });

  it('"compare A and B" brings each one\'s page', async () => {
    const root = await packagesWorkspace();
    const server = await serve([{ text: '[[lme4]] is likelihood-based; [[glmmtmb]] adds zero inflation.' }]);
    const result = await runCli(['query', 'Compare lme4 and glmmTMB', '--json'], { cwd: root, env: server.env(api) });
    expect(result.code, result.stderr).toBe(0);
    const first = firstUserText(server.requests[0]!.body);
    for (const key of ['lme4', 'glmmtmb']) expect(first).toMatch(new RegExp(`## \\[\\[${key}\\]\\] .*search match\\)`));
  });
});
