import { isoDate } from '../../util/dates.js';
import { serialisePage, sourcesOf } from '../../wiki/page.js';
import { chainAmong, MAX_CHAIN_LINES, type EvidenceLink } from '../../retrieval/evidence-pack.js';
import { answerKeys } from './query-key.js';
import type { Session } from '../run/session.js';

/** `wiki query --save`: filing the answer as a page under the concepts folder, with its evidence. */

/** Where `wiki query --save` filed the answer (QueryReport.saved without `created`), or why it did not. */
export type Filing = { saved?: { path: string; by: 'model' | 'wiki' }; notSaved?: string };

/**
 * The answer must end up as a page: keep the model's page when it wrote one under
 * wiki/concepts/, otherwise write it here with refs to the cited pages and their sources.
 */
export async function ensureSaved(session: Session, question: string, answer: string, cited: string[], uncited: string[]): Promise<Filing> {
  const conceptFolder = conceptFolderOf(session);
  const evidence = citedEvidence(session, cited);
  const byModel = modelSavedPage(session);
  if (byModel) {
    await fileEvidenceOnModelPage(session, byModel, evidence);
    return { saved: { path: byModel, by: 'model' } };
  }
  const key = freeKey(session, answerKeys(question));
  const relPath = `${conceptFolder}/${key}.md`;
  const sources = [...new Set(cited.flatMap((k) => sourcesOf(session.pages.get(k)?.frontmatter ?? {})))].sort();
  const today = isoDate();
  const body = withEvidence(unlinkMissing(answer, uncited), evidence);
  const content = serialisePage(
    {
      title: question.replace(/\s+/g, ' ').slice(0, 120),
      summary: firstSentence(body),
      type: 'concept',
      tags: ['query'],
      refs: cited,
      sources,
      created: today,
      updated: today,
    },
    `\n${body}\n`,
  );
  if (sources.length === 0) {
    return { notSaved: 'the answer cites no wiki page with sources, and a saved page must record the raw files it draws on' };
  }
  const verdict = await session.writeCheck.validate(relPath, content, undefined);
  if (!verdict.ok) return { notSaved: `it would not be a valid page: ${verdict.errors.join('; ')}` };
  await session.writeFile(relPath, content);
  return { saved: { path: relPath, by: 'wiki' } };
}

function conceptFolderOf(session: Session): string {
  return session.ws.schema.contract.types.concept?.folder ?? 'wiki/concepts';
}

/** The page the model wrote under the concepts folder in this run: the answer it saved. */
export function modelSavedPage(session: Session): string | undefined {
  const conceptFolder = conceptFolderOf(session);
  return [...session.changed.keys()].find((p) => p.startsWith(`${conceptFolder}/`) && p.endsWith('.md'));
}

/** What the saved page's Evidence section lists: the pages the answer cites, and the links among them. */
interface CitedEvidence {
  pages: string[];
  chain: string[];
}

function citedEvidence(session: Session, cited: readonly string[]): CitedEvidence {
  const linksOf = (key: string): readonly EvidenceLink[] => session.pages.get(key)?.links ?? [];
  return { pages: [...cited], chain: chainAmong(cited, linksOf, Number.POSITIVE_INFINITY) };
}

/**
 * The page the model saved gets the evidence too, unless it already has an Evidence
 * section; an addition the page checks refuse is left out (the model's page stands).
 */
async function fileEvidenceOnModelPage(session: Session, relPath: string, evidence: CitedEvidence): Promise<void> {
  const text = await session.fs.readText(session.abs(relPath));
  if (/^## Evidence\s*$/m.test(text)) return;
  const content = `${withEvidence(text.trimEnd(), evidence)}\n`;
  if (content === `${text.trimEnd()}\n`) return;
  const verdict = await session.writeCheck.validate(relPath, content, text);
  if (verdict.ok) await session.writeFile(relPath, content);
}

/** The answer, then the pages it cites and the links among them as plain lines (no new links to validate). */
function withEvidence(body: string, evidence: CitedEvidence): string {
  if (evidence.chain.length === 0 && evidence.pages.length === 0) return body;
  const lines = ['', '## Evidence', ''];
  if (evidence.pages.length > 0) lines.push(`Pages cited: ${evidence.pages.map((key) => `\`${key}\``).join(', ')}`, '');
  lines.push(...evidence.chain.slice(0, MAX_CHAIN_LINES).map((line) => `- \`${line}\``));
  // A played run read ten lines as all there was: say how many more links join the cited pages.
  const more = evidence.chain.length - MAX_CHAIN_LINES;
  if (more > 0) lines.push(`- … and ${more} more link(s) among the cited pages`);
  return `${body}\n${lines.join('\n')}`.trimEnd();
}

/** The first of `candidates` no page has, else the first numbered (`-2`, `-3`…). */
function freeKey(session: Session, candidates: readonly string[]): string {
  const keys = candidates.length > 0 ? candidates : ['answer'];
  const free = keys.find((key) => !session.pages.has(key));
  if (free !== undefined) return free;
  const base = keys[0] ?? 'answer';
  for (let n = 2; ; n++) if (!session.pages.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** `[[missing|label]]` → `label`, `[[missing]]` → `missing`: no broken link is saved. */
export function unlinkMissing(text: string, missing: string[]): string {
  if (missing.length === 0) return text;
  const gone = new Set(missing);
  return text.replace(/\[\[([^\[\]\n]+?)\]\]/g, (whole, inner: string) => {
    const [target = '', label] = inner.split('|');
    const key = (target.split('#')[0] ?? '').trim();
    if (!gone.has(key)) return whole;
    return (label ?? target).trim();
  });
}

function firstSentence(text: string): string {
  const plain = text
    .replace(/\[\[([^\]|]+)\|([^\]]+)\]\]/g, '$2')
    .replace(/\[\[([^\]]+)\]\]/g, '$1')
    .replace(/[#*_`>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const match = /^(.{20,200}?[.!?])(\s|$)/.exec(plain);
  const sentence = match?.[1] ?? plain.slice(0, 160);
  return sentence || 'Saved answer.';
}
