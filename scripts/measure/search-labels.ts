import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { searchWorkspace } from '../../src/operations/inspect/search.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';
import { keyFromPath } from '../../src/wiki/keys.js';

/**
 * Whether search's strong/weak labels tell the truth on a played wiki (issue 36): for
 * questions about subjects the wiki has a page on (the right page known), where the right
 * page ranks and whether it is labelled strong; for subjects it lacks, whether any page is
 * labelled strong. Searched the way `wiki search` searches (`searchWorkspace`, default
 * settings, the built-in embedder). The questions are `search-questions.json` in each
 * played wiki's folder.
 */
export interface QuestionSet {
  heldOut?: boolean;
  present: Array<{ query: string; page: string; also?: string[] }>;
  absent: string[];
}

export interface LabelMeasurement {
  name: string;
  heldOut: boolean;
  present: number;
  top1: number;
  top3: number;
  /** The right page is among the hits and labelled strong. */
  rightStrong: number;
  /** The answer says no page is strongly about the query while the right page is in the top 3. */
  noneStrongButTop3: number;
  absent: number;
  /** Absent subjects for which some hit is labelled strong. */
  absentStrong: number;
  /** Answers in which a strong hit comes after a weak one. */
  notMonotone: number;
  /** One line per question that went wrong, for the detailed listing. */
  misses: string[];
}

export const QUESTIONS_FILE = 'search-questions.json';

/** Folders under `fixtures` named played-wiki* that hold a question set, by name. */
export async function playedWikiFolders(fixtures: string): Promise<string[]> {
  if (!existsSync(fixtures)) return [];
  const names = (await readdir(fixtures)).filter((name) => name.startsWith('played-wiki')).sort();
  return names.map((name) => path.join(fixtures, name)).filter((folder) => existsSync(path.join(folder, QUESTIONS_FILE)) && existsSync(path.join(folder, 'wiki')));
}

export async function measureLabels(folder: string): Promise<LabelMeasurement> {
  const questions = JSON.parse(await readFile(path.join(folder, QUESTIONS_FILE), 'utf8')) as QuestionSet;
  const root = await mkdtemp(path.join(tmpdir(), 'wiki-labels-eval-'));
  try {
    await initWorkspace(root);
    await rm(path.join(root, 'wiki'), { recursive: true, force: true });
    await cp(path.join(folder, 'wiki'), path.join(root, 'wiki'), { recursive: true });
    const schema = await loadSchema(root);
    const config = await loadConfig(root, { env: {} });
    const search = (query: string) => searchWorkspace(root, schema, config, { query, limit: 10, env: {} });
    const m: LabelMeasurement = {
      name: path.basename(folder),
      heldOut: questions.heldOut === true,
      present: 0,
      top1: 0,
      top3: 0,
      rightStrong: 0,
      noneStrongButTop3: 0,
      absent: 0,
      absentStrong: 0,
      notMonotone: 0,
      misses: [],
    };
    for (const { query, page, also = [] } of questions.present) {
      const answer = await search(query);
      const keys = answer.results.map((hit) => keyFromPath(hit.path));
      const right = new Set([page, ...also]);
      const at = keys.findIndex((key) => right.has(key));
      const labels = answer.results.map((hit) => hit.strength ?? 'weak');
      m.present++;
      if (at === 0) m.top1++;
      if (at >= 0 && at < 3) m.top3++;
      const strong = at >= 0 && labels[at] === 'strong';
      if (strong) m.rightStrong++;
      if (!answer.strong && at >= 0 && at < 3) m.noneStrongButTop3++;
      if (!monotone(labels)) m.notMonotone++;
      if (at !== 0 || !strong || !monotone(labels)) m.misses.push(`  "${query}" → ${page}: ${describe(keys, labels)}`);
    }
    for (const query of questions.absent) {
      const answer = await search(query);
      const labels = answer.results.map((hit) => hit.strength ?? 'weak');
      m.absent++;
      if (answer.strong) {
        m.absentStrong++;
        m.misses.push(`  absent "${query}": ${describe(answer.results.map((hit) => keyFromPath(hit.path)), labels)}`);
      }
      if (!monotone(labels)) m.notMonotone++;
    }
    return m;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function monotone(labels: readonly string[]): boolean {
  return labels.every((label, i) => i === 0 || label !== 'strong' || labels[i - 1] === 'strong');
}

function describe(keys: readonly string[], labels: readonly string[]): string {
  return keys.slice(0, 4).map((key, i) => `${i + 1}. ${key} (${labels[i]})`).join(', ') || 'no hits';
}

export function formatLabels(m: LabelMeasurement): string {
  const ratio = (n: number, d: number): string => `${n}/${d}`;
  return (
    `${m.name.padEnd(18)} ${(m.heldOut ? 'held out' : 'tuned').padEnd(9)} ` +
    `top-1 ${ratio(m.top1, m.present).padEnd(6)} top-3 ${ratio(m.top3, m.present).padEnd(6)} right page strong ${ratio(m.rightStrong, m.present).padEnd(6)} ` +
    `"none strong" with the right page in the top 3: ${m.noneStrongButTop3}; absent subjects with a strong hit ${ratio(m.absentStrong, m.absent)}; ` +
    `label order broken in ${m.notMonotone}`
  );
}
