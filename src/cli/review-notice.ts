import type { Command } from 'commander';
import type { ReviewRequest } from '../operations/review/propose.js';
import { addConfigFlags } from './config-flags.js';
import type { Workspace } from './context.js';
import { load } from './lazy.js';
import { pageCounts } from './render-review.js';

/** `--review` and `--no-review` on a command that writes pages. */
export function addReviewOptions(command: Command): Command {
  addConfigFlags(command, ['review']);
  return command.option('--no-review', 'write wiki/ directly even when `review: true` is in wiki.config.json');
}

/** Where a command's runs keep their proposals, when it runs under review (`--review` or `review: true`, never with --dry-run). */
export async function reviewRequestFor(ws: Workspace, dryRun: boolean): Promise<ReviewRequest | undefined> {
  if (!ws.config.config.review || dryRun) return undefined;
  const [{ ReviewRequest }, { ProposalStore }] = await load('reviewRequest', 'reviewStore');
  return new ReviewRequest(new ProposalStore(ws.root, ws.config.config.reviewFolder), ws.schema.contract);
}

/**
 * After a run under `--review`: its report names the proposals it left (`proposals`) and how
 * many wait in all (`proposalsWaiting`) instead of a dry run's diff, and a person is told
 * where to look, on stderr, even with --quiet (a cron mail must say it).
 */
export async function proposalsOutcome(report: unknown, review: ReviewRequest, user: string | undefined = process.env.WIKI_USER?.trim() || undefined): Promise<string[]> {
  if (!review.used) return [];
  const waiting = await review.waiting(user);
  if (report !== null && typeof report === 'object') {
    const fields = report as Record<string, unknown>;
    delete fields.diff;
    fields.proposals = review.saved;
    fields.proposalsWaiting = waiting;
  }
  const lines: string[] = [review.saved.length > 0 ? 'Under review: nothing outside .wiki/ changed (wiki/ and raw/ as they were); the changes above wait in proposals.' : ''];
  for (const p of review.saved) {
    const what = [...p.pages.map((page) => `${page.change} ${page.path}`), ...(p.also ?? [])];
    // A long list reads better as counts (the report above, and `wiki review show`, name each page).
    const said = what.length <= 3 ? what.join(', ') : [pageCounts(p.pages), ...(p.also ?? []).map((also) => `also ${also}`)].join('; ');
    lines.push(`proposal ${p.id} waits: ${p.pages.length} page(s) (${said}). See it: wiki review show ${p.id}`);
  }
  if (review.saved.length === 0) lines.push('review: the run proposed no page change, so no proposal was left');
  if (waiting > 0) lines.push(`${waiting} ${waiting === 1 ? 'proposal waits' : 'proposals wait'} for review (wiki review)`);
  return lines.filter(Boolean);
}

