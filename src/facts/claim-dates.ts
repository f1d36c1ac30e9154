/**
 * Dates in a claim or a line of evidence, whatever their format ("9 August 2016",
 * "2016-08-09", "09-Aug-2016", "August of 2016"), as `YYYY-MM` or `YYYY-MM-DD`.
 */

export const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE_PATTERNS: Array<{ pattern: RegExp; parts: (m: RegExpExecArray) => [string, string, string | undefined] }> = [
  { pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/g, parts: (m) => [m[1] ?? '', m[2] ?? '', m[3]] },
  { pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?[ -]${MONTH}[ ,-]+(\\d{4})\\b`, 'gi'), parts: (m) => [m[3] ?? '', monthNumber(m[2]), m[1]] },
  { pattern: new RegExp(`\\b${MONTH} (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b`, 'gi'), parts: (m) => [m[3] ?? '', monthNumber(m[1]), m[2]] },
  // "August 2016", "August, 2016", "August of 2016".
  { pattern: new RegExp(`\\b${MONTH},?(?: of)? (\\d{4})\\b`, 'gi'), parts: (m) => [m[2] ?? '', monthNumber(m[1]), undefined] },
  // "April '23": a played source dated its redesign so, its page "April 2023".
  { pattern: new RegExp(`\\b${MONTH} ['’](\\d{2})\\b`, 'gi'), parts: (m) => [fullYear(m[2] ?? ''), monthNumber(m[1]), undefined] },
];

/** A two-digit year as POSIX reads one: 69–99 are 1969–1999, 00–68 are 2000–2068. */
function fullYear(twoDigits: string): string {
  return `${Number(twoDigits) >= 69 ? 19 : 20}${twoDigits}`;
}

function monthNumber(name: string | undefined): string {
  const index = MONTHS.findIndex((month) => month.startsWith((name ?? '').toLowerCase().replace(/\.$/, '').slice(0, 3)));
  return String(index + 1).padStart(2, '0');
}

/** Dates in `text`, normalised, and the text with them blanked (their digits are not numbers). */
export function extractDates(text: string): { dates: string[]; rest: string } {
  // Every date pattern holds a digit: most text has none worth scanning for.
  if (!/\d/.test(text)) return { dates: [], rest: text };
  const dates: string[] = [];
  let rest = text;
  for (const { pattern, parts } of DATE_PATTERNS) {
    rest = rest.replace(pattern, (...args: unknown[]) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      const [year, month, day] = parts(match);
      dates.push(day === undefined ? `${year}-${month}` : `${year}-${month}-${day.padStart(2, '0')}`);
      return ` ${year} `; // the year stays a number: "in 1945" is supported by "July 1945"
    });
  }
  return { dates, rest };
}
