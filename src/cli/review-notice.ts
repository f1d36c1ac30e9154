import type { ReviewRequest } from '../operations/review/propose.js';

/**
 * After a run under `--review`: its report names the proposals it left (`proposals`) and how
 * many wait in all (`proposalsWaiting`) instead of a dry run's diff, and a person is told
 * where to look, on stderr, even with --quiet (a cron mail must say it).
 */
export async function proposalsOutcome(report: unknown, review: ReviewRequest): Promise<string[]> {
  if (!review.used) return [];
  const user = process.env.WIKI_USER?.trim() || undefined;
  const waiting = await review.waiting(user);
  if (report !== null && typeof report === 'object') {
    const fields = report as Record<string, unknown>;
    delete fields.diff;
    fields.proposals = review.saved;
    fields.proposalsWaiting = waiting;
  }
  const lines: string[] = [review.saved.length > 0 ? 'Under review: nothing under wiki/ changed; the pages above wait in proposals.' : ''];
  for (const p of review.saved) {
    lines.push(`proposal ${p.id} waits: ${p.pages.length} page(s) (${p.pages.map((page) => `${page.change} ${page.path}`).join(', ')}). See it: wiki review show ${p.id}`);
  }
  if (review.saved.length === 0) lines.push('review: the run proposed no page change, so no proposal was left');
  if (waiting > 0) lines.push(`${waiting} ${waiting === 1 ? 'proposal waits' : 'proposals wait'} for review (wiki review)`);
  return lines.filter(Boolean);
}
