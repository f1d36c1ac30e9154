import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewReading, type ReviewPage } from '../../../src/operations/lint/review-reading.js';
import { parsePage } from '../../../src/wiki/page.js';

/**
 * The lint review is told what to read within a stated budget: the pages its findings are on
 * (only the lines each finding names, as read_file offsets), then the most linked pages,
 * then those updated longest ago — never more than the budget.
 */

async function wiki(pages: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-review-reading-'));
  for (const [file, text] of Object.entries(pages)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

const page = (key: string, updated: string, body: string): string => `---\ntitle: ${key}\nsummary: About ${key}.\ntype: concept\nupdated: ${updated}\n---\n\n${body}\n`;

describe('reviewReading', () => {
  it('names the pages with findings and the offsets of just their lines, then the most linked and the oldest pages, within the budget', async () => {
    const texts: Record<string, string> = {
      'wiki/concepts/flagged.md': page('flagged', '2026-05-01', Array.from({ length: 30 }, (_, i) => `Line ${i + 8} of the flagged page.`).join('\n')),
      'wiki/concepts/hub.md': page('hub', '2026-05-01', 'A page many link to.'),
      'wiki/concepts/old.md': page('old', '2025-01-01', 'An old page.'),
      'wiki/concepts/huge.md': page('huge', '2024-01-01', 'x'.repeat(5_000)),
      'wiki/concepts/fresh.md': page('fresh', '2026-06-01', 'A fresh page.'),
    };
    const root = await wiki(texts);
    const pages: ReviewPage[] = Object.entries(texts).map(([file, text]) => ({ page: parsePage(file, text), linksIn: file.includes('hub') ? 4 : file.includes('fresh') ? 1 : 0 }));
    const guide = reviewReading(root, pages, [{ rule: 'miscited', severity: 'warning', path: 'wiki/concepts/flagged.md', line: 20, message: 'm' }], 1_000);
    expect(guide).toContain('Read at most about 1,000 characters of pages for this review');
    const text = texts['wiki/concepts/flagged.md'] ?? '';
    const offset = text.split('\n').slice(0, 17).join('\n').length + 1;
    const hint = /line 20: read_file wiki\/concepts\/flagged\.md offset (\d+) limit (\d+) \(lines 18–22\)/.exec(guide);
    expect(hint, guide).not.toBeNull();
    expect(Number(hint?.[1])).toBe(offset);
    // The window shows exactly lines 18-22.
    expect(text.slice(Number(hint?.[1]), Number(hint?.[1]) + Number(hint?.[2])).split('\n').filter(Boolean)).toHaveLength(5);
    expect(guide).toMatch(/Most linked[^\n]*\n- wiki\/concepts\/hub\.md \(4 pages link here/);
    expect(guide).toMatch(/Least recently updated[^\n]*\n- wiki\/concepts\/old\.md \(updated 2025-01-01/);
    // Over the budget: never pointed to.
    expect(guide).not.toContain('huge.md');
  });

  it('says nothing for a wiki with no pages', () => {
    expect(reviewReading('/nowhere', [], [])).toBe('');
  });
});
