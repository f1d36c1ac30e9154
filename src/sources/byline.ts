/**
 * Who wrote a web page and when: from Readability's byline and published time, else the
 * page's meta tags and first `<time datetime>`. Readability takes the byline out of the
 * article's content, so without this the model never reads it.
 */

export interface Byline {
  author?: string;
  /** YYYY-MM-DD when the date could be read, else the date as the page wrote it. */
  published?: string;
}

/** The few document members read here (linkedom's document provides them). */
interface MetaSource {
  querySelector(selectors: string): { getAttribute(name: string): string | null; textContent: string | null } | null;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\s+(\\d{4})\\b`, 'i');
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i');
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/;

export function readByline(document: MetaSource, parsed: { byline?: string | null; publishedTime?: string | null } | null): Byline {
  const meta = (selector: string): string | undefined => clean(document.querySelector(selector)?.getAttribute('content'));
  const rawByline = clean(parsed?.byline);
  const dateText =
    clean(parsed?.publishedTime) ??
    meta('meta[property="article:published_time"]') ??
    meta('meta[name="date"]') ??
    meta('meta[name="dcterms.date"]') ??
    clean(document.querySelector('time[datetime]')?.getAttribute('datetime')) ??
    (rawByline ? findDate(rawByline)?.text : undefined);
  const metaAuthor = meta('meta[name="author"]') ?? meta('meta[property="article:author"]');
  const author = authorOf(rawByline) ?? (metaAuthor && !/^https?:/i.test(metaAuthor) ? metaAuthor : undefined);
  const byline: Byline = {};
  if (author) byline.author = author;
  if (dateText) byline.published = isoDate(dateText) ?? dateText;
  return byline;
}

/** The line put under an article's title, e.g. `By A. Researcher · published 2024-03-12`. */
export function bylineLine(byline: Byline): string | undefined {
  const parts = [byline.author ? `By ${byline.author}` : undefined, byline.published ? `published ${byline.published}` : undefined].filter(Boolean);
  return parts.length ? `*${parts.join(' · ')}*` : undefined;
}

/** "By A. Researcher, 12 March 2024" → "A. Researcher". */
function authorOf(byline: string | undefined): string | undefined {
  if (!byline) return undefined;
  const date = findDate(byline);
  const withoutDate = date ? byline.replace(date.text, ' ') : byline;
  const name = withoutDate
    .replace(/^\s*(written\s+)?by\s+/i, '')
    .replace(/\b(published|posted|updated)( on)?\s*$/i, '')
    .replace(/^[\s,·|—–-]+|[\s,·|—–-]+$/g, '')
    .trim();
  return name || undefined;
}

function findDate(text: string): { text: string } | undefined {
  const match = ISO_DATE.exec(text) ?? DAY_MONTH_YEAR.exec(text) ?? MONTH_DAY_YEAR.exec(text);
  return match ? { text: match[0] } : undefined;
}

/** A date as YYYY-MM-DD: an ISO date or timestamp, "12 March 2024", "March 12, 2024". */
function isoDate(text: string): string | undefined {
  const iso = ISO_DATE.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dmy = DAY_MONTH_YEAR.exec(text);
  if (dmy) return ymd(dmy[3], dmy[2], dmy[1]);
  const mdy = MONTH_DAY_YEAR.exec(text);
  if (mdy) return ymd(mdy[3], mdy[1], mdy[2]);
  return undefined;
}

function ymd(year: string | undefined, month: string | undefined, day: string | undefined): string | undefined {
  const index = MONTHS.findIndex((name) => name.startsWith((month ?? '').toLowerCase().replace(/\.$/, '').slice(0, 3)));
  const dayNumber = Number(day);
  if (index < 0 || !year || !(dayNumber >= 1 && dayNumber <= 31)) return undefined;
  return `${year}-${String(index + 1).padStart(2, '0')}-${String(dayNumber).padStart(2, '0')}`;
}

function clean(text: string | null | undefined): string | undefined {
  const cleaned = text?.replace(/\s+/g, ' ').trim();
  return cleaned ? cleaned : undefined;
}
