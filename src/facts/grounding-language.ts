/**
 * Grounding in a page's language (its frontmatter `lang`). The check itself reads English:
 * its stems, negations, number and date formats. A text in another language is first
 * rewritten into what that reading understands — numbers in the language's format as plain
 * digits ("1.000,5" in German, "1 000,5" in French → 1000.5; 三千 → 3000), dates as ISO
 * dates ("9. August 2016", "9 août 2016", 2016年8月9日 → 2016-08-09), negations as "not"
 * (nicht, kein, nie; ne…pas, jamais; 不, 没有; ない), unspaced scripts cut into words
 * (Intl.Segmenter) — so the same check holds in the language. English (or no `lang`) is
 * read as it always was: no rewrite at all.
 */

export interface GroundingLanguage {
  /** The page's tag as written in its frontmatter, canonical. */
  tag: string;
  /** The text as the English reading of the check understands it. */
  normalise(text: string): string;
}

/** Languages writing a decimal comma and grouping thousands with a full stop or a space. */
const DECIMAL_COMMA = new Set(['de', 'fr', 'es', 'it', 'pt', 'nl', 'ru', 'pl', 'sv', 'da', 'nb', 'nn', 'no', 'fi', 'cs', 'sk', 'tr', 'ro', 'hu', 'id', 'uk', 'el', 'ca', 'hr', 'sl', 'bg', 'lt', 'lv', 'et']);
const UNSPACED = new Set(['zh', 'ja', 'ko', 'th', 'lo', 'km', 'my']);

const ENGLISH_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Month names by language, each a pattern for the month at its index (full names, common abbreviations). */
const MONTH_NAMES: Record<string, readonly string[]> = {
  de: ['januar|jan\\.?|jänner', 'februar|feb\\.?', 'märz|mär\\.?|maerz', 'april|apr\\.?', 'mai', 'juni|jun\\.?', 'juli|jul\\.?', 'august|aug\\.?', 'september|sept?\\.?', 'oktober|okt\\.?', 'november|nov\\.?', 'dezember|dez\\.?'],
  fr: ['janvier|janv\\.?', 'février|fevrier|févr\\.?', 'mars', 'avril|avr\\.?', 'mai', 'juin', 'juillet|juil\\.?', 'août|aout', 'septembre|sept\\.?', 'octobre|oct\\.?', 'novembre|nov\\.?', 'décembre|decembre|déc\\.?'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre|setiembre', 'octubre', 'noviembre', 'diciembre'],
  it: ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'],
  pt: ['janeiro', 'fevereiro', 'março|marco', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
  nl: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
};

/** Words that negate, by language, each read as the English word after the arrow. */
const NEGATION_WORDS: Record<string, Record<string, string>> = {
  de: { nicht: 'not', kein: 'no', keine: 'no', keinen: 'no', keinem: 'no', keiner: 'no', keines: 'no', nie: 'never', niemals: 'never', nichts: 'nothing', niemand: 'nobody', nirgends: 'nowhere', weder: 'neither', ohne: 'without' },
  fr: { pas: 'not', jamais: 'never', aucun: 'no', aucune: 'no', rien: 'nothing', nul: 'no', nulle: 'no', ni: 'nor', sans: 'without' },
  es: { no: 'not', nunca: 'never', jamás: 'never', ningún: 'no', ninguno: 'no', ninguna: 'no', nada: 'nothing', nadie: 'nobody', ni: 'nor', sin: 'without' },
  it: { non: 'not', mai: 'never', nessun: 'no', nessuno: 'no', nessuna: 'no', niente: 'nothing', nulla: 'nothing', né: 'nor', senza: 'without' },
  pt: { não: 'not', nunca: 'never', jamais: 'never', nenhum: 'no', nenhuma: 'no', nada: 'nothing', ninguém: 'nobody', nem: 'nor', sem: 'without' },
  nl: { niet: 'not', geen: 'no', nooit: 'never', niets: 'nothing', niemand: 'nobody', zonder: 'without' },
};

/** A Chinese or Japanese word that negates (as Intl.Segmenter cuts them: 也没有, 不, ない, ません's せん). */
const CJK_NEGATION = /^(?:也|还|并|从|都|绝|决|亦)?(?:不|没有|没|未|无|無|非|別|别|從未|从未|未曾|不是|不能|不会|不會|不再|無法|无法)$|^(?:ない|なかっ|なかった|なく|せん|ず|ぬ|ありません|ではない|じゃない)$/u;

const NEGATING_PREFIX = /^(不|没|沒|未)(\p{Script=Han}+)$/u;
/** Words that begin with a negating character and negate nothing ("different", "but", "constantly", "not only", "quite a few", "soon", "good", "regardless"…). */
const NOT_A_NEGATION = new Set(['不同', '不过', '不過', '不断', '不斷', '不仅', '不僅', '不少', '不久', '不错', '不錯', '不管', '不论', '不論', '不但', '不如', '不然', '未来', '未來', '不得不', '不一定']);

/** A Japanese verb's or adjective's negative ending (開始しなかった, ない, ません), where the segmenter splits it unevenly; 少ない (few) and 危ない (dangerous) negate nothing. */
const JAPANESE_NEGATIVE_ENDING = /(?<![少危])(?:なかった|なくて|ない|ませんでした|ません)(?=[。、，,.!?！？\s」』）)]|です|でした|$)/gu;

const CJK_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const CJK_UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
const CJK_LARGE: Record<string, number> = { 万: 1e4, 萬: 1e4, 亿: 1e8, 億: 1e8 };
/** A run of numerals that is a number: it starts with a digit numeral (or 十 and a digit) and holds a unit — "一" alone in 统一 or 一些, 万一, 千万 are words. */
const CJK_NUMBER = /(?:[零〇一二两兩三四五六七八九]|十(?=[一二三四五六七八九]))[零〇一二两兩三四五六七八九十百千万萬亿億]*/gu;
/** A lone numeral before a counter word (三个, 两种, 五年): a number. */
const CJK_COUNTED = /([一二两兩三四五六七八九])(?=[个個种種项項次年名位台篇条條倍天月岁歲人层層件组組])/gu;

const languages = new Map<string, GroundingLanguage | undefined>();

/** The grounding reading for a page's `lang`, or undefined for English, no `lang` or a tag that is no language: read as before. */
export function groundingLanguage(lang: unknown): GroundingLanguage | undefined {
  if (typeof lang !== 'string') return undefined;
  if (languages.has(lang)) return languages.get(lang);
  let tag: string | undefined;
  try {
    tag = Intl.getCanonicalLocales(lang)[0];
  } catch {
    tag = undefined;
  }
  const primary = tag?.split('-')[0] ?? 'en';
  const language = tag === undefined || primary === 'en' ? undefined : { tag, normalise: normaliser(tag, primary) };
  languages.set(lang, language);
  return language;
}

/**
 * The reading for a page: its `lang`'s, when its body is written in that language. A page
 * that says `lang: de` but reads as English (a model that set it to turn what the check is
 * sure of into questions, or a copy-paste) is read as English: its English function words
 * give it away, as the lack of Chinese or Japanese script gives away a page that says `zh`.
 */
export function pageLanguage(lang: unknown, body: string): GroundingLanguage | undefined {
  const language = groundingLanguage(lang);
  if (language === undefined) return undefined;
  const primary = language.tag.split('-')[0] ?? '';
  if (UNSPACED.has(primary)) {
    const letters = body.match(/\p{L}/gu)?.length ?? 0;
    const unspaced = body.match(UNSPACED_RUNS)?.join('').length ?? 0;
    return letters === 0 || unspaced / letters >= UNSPACED_SHARE ? language : undefined;
  }
  const words = body.toLowerCase().match(/\p{L}+/gu) ?? [];
  const english = words.filter((word) => ENGLISH_FUNCTION_WORDS.has(word)).length;
  return words.length >= 20 && english / words.length >= ENGLISH_SHARE ? undefined : language;
}

/** English words that no other language the check reads uses as a word of its own ("on" is French, "an" German). */
const ENGLISH_FUNCTION_WORDS = new Set(['the', 'and', 'of', 'to', 'is', 'are', 'was', 'were', 'that', 'with', 'for', 'this', 'it', 'by', 'from', 'which', 'be', 'has', 'have']);
/** English prose is about a fifth these words; a page in another language quoting some English far less. */
const ENGLISH_SHARE = 0.08;
/** A page in Chinese or Japanese is mostly written in their scripts, whatever names and code it holds in Latin letters. */
const UNSPACED_SHARE = 0.3;

function normaliser(tag: string, primary: string): (text: string) => string {
  const steps: Array<(text: string) => string> = [];
  if (UNSPACED.has(primary)) {
    steps.push((text) => text.normalize('NFKC'), cjkDates, cjkNumbers);
    if (primary === 'ja') steps.push((text) => text.replace(JAPANESE_NEGATIVE_ENDING, ' not '));
    steps.push((text) => segmented(text, tag));
  }
  const months = MONTH_NAMES[primary];
  if (months) steps.push(namedDates(months));
  if (DECIMAL_COMMA.has(primary)) steps.push(numericDates, decimalCommaNumbers(primary === 'fr'));
  if (primary === 'fr') steps.push((text) => text.replace(/\b(?:ne|n['’])\s*(?=\p{L})/giu, ''));
  const negations = NEGATION_WORDS[primary];
  if (negations) steps.push((text) => text.replace(/\p{L}+/gu, (word) => negations[word.toLowerCase()] ?? word));
  // German capitalises every noun: a capital says nothing of a name there, so none is read as one.
  if (NOUNS_CAPITALISED.has(primary)) steps.push((text) => text.toLowerCase());
  return (text) => steps.reduce((current, step) => step(current), text);
}

const NOUNS_CAPITALISED = new Set(['de', 'lb', 'gsw', 'nds']);

/** "9. August 2016", "9 août 2016", "1er août 2016", "August 2016" in the language's month names → ISO date or English month and year. */
function namedDates(months: readonly string[]): (text: string) => string {
  const alternatives = months.map((pattern, index) => ({ index, pattern: new RegExp(`^(?:${pattern})$`, 'iu') }));
  const anyMonth = months.join('|');
  const dayMonthYear = new RegExp(`(?<![\\p{L}\\p{N}])(\\d{1,2})(?:\\.|er|º|°)?\\s+(?:de\\s+)?(${anyMonth})(?:\\s+de)?\\s+(\\d{4})(?!\\p{N})`, 'giu');
  const monthYear = new RegExp(`(?<![\\p{L}\\p{N}])(${anyMonth})(?:\\s+de)?\\s+(\\d{4})(?!\\p{N})`, 'giu');
  const monthOf = (name: string): number => alternatives.find((month) => month.pattern.test(name))?.index ?? -1;
  return (text) => {
    if (!/\d{4}/.test(text)) return text;
    const days = text.replace(dayMonthYear, (whole, day: string, month: string, year: string) => {
      const index = monthOf(month);
      return index < 0 ? whole : `${year}-${String(index + 1).padStart(2, '0')}-${day.padStart(2, '0')}`;
    });
    // As English month names, which the check reads as dates.
    return days.replace(monthYear, (whole, month: string, year: string) => {
      const index = monthOf(month);
      return index < 0 ? whole : `${ENGLISH_MONTHS[index]} ${year}`;
    });
  };
}

/** "09.08.2016", "9/8/2016" (day first) → 2016-08-09. */
function numericDates(text: string): string {
  return text.replace(/(?<![\d.,/])(\d{1,2})[./](\d{1,2})[./](\d{4})(?![\d.,/]\d)/g, (whole, day: string, month: string, year: string) => {
    const d = Number(day);
    const m = Number(month);
    return d >= 1 && d <= 31 && m >= 1 && m <= 12 ? `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` : whole;
  });
}

/**
 * "1.000,5", "3,5" → 1000.5, 3.5; thousands grouped by a no-break or narrow no-break space
 * too, and in French by a plain space ("1 000,5"), where German would read two numbers.
 */
function decimalCommaNumbers(plainSpaceGroups: boolean): (text: string) => string {
  const grouped = new RegExp(`(?<![\\d.,])(\\d{1,3}(?:[.\u00a0\u202f${plainSpaceGroups ? ' ' : ''}]\\d{3})+)(,\\d+)?(?![\\d]|[.,]\\d)`, 'g');
  return (text) =>
    text
      .replace(grouped, (_whole, whole: string, fraction: string | undefined) => {
        const digits = whole.replace(/[.\s\u00a0\u202f]/g, '');
        return fraction ? `${digits}.${fraction.slice(1)}` : digits;
      })
      .replace(/(?<![\d.,])(\d+),(\d+)(?![\d]|[.,]\d)/g, '$1.$2');
}

/** 2016年8月9日 → 2016-08-09; 2016年8月 → August 2016. */
function cjkDates(text: string): string {
  return text
    .replace(/(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/g, (_w, year: string, month: string, day: string) => ` ${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')} `)
    .replace(/(\d{4})\s*年\s*(\d{1,2})\s*月/g, (whole, year: string, month: string) => {
      const index = Number(month) - 1;
      return index >= 0 && index < 12 ? ` ${ENGLISH_MONTHS[index]} ${year} ` : whole;
    });
}

/** 三千二百 → 3200, 十五 → 15, 三个 → 3个, 3万 → 30000, 1.5亿 → 150000000. */
function cjkNumbers(text: string): string {
  return text
    .replace(CJK_NUMBER, (run) => (/[十百千万萬亿億]/u.test(run) || run.length > 1 ? ` ${cjkValue(run)} ` : run))
    .replace(CJK_COUNTED, (digit: string) => ` ${CJK_DIGITS[digit]} `)
    .replace(/(\d+(?:\.\d+)?)\s*([万萬亿億])/gu, (_w, value: string, unit: string) => ` ${Number(value) * (CJK_LARGE[unit] ?? 1)} `);
}

function cjkValue(run: string): number {
  let total = 0;
  let section = 0;
  let digit = 0;
  let positional = '';
  for (const char of run) {
    const value = CJK_DIGITS[char];
    if (value !== undefined) {
      digit = value;
      positional += String(value);
    } else if (CJK_UNITS[char] !== undefined) {
      section += (digit === 0 ? 1 : digit) * (CJK_UNITS[char] ?? 1);
      digit = 0;
      positional = '';
    } else if (CJK_LARGE[char] !== undefined) {
      total += (section + digit) * (CJK_LARGE[char] ?? 1);
      section = 0;
      digit = 0;
      positional = '';
    }
  }
  // "二〇一六" is written digit by digit.
  if (!/[十百千万萬亿億]/u.test(run)) return Number(positional);
  return total + section + digit;
}

const segmenters = new Map<string, Intl.Segmenter>();

/** Unspaced script cut into words, spaces between them, a negating word read as "not"; 。！？ end sentences as ". " does. Other text is left as it is. */
function segmented(text: string, tag: string): string {
  if (!UNSPACED_RUN.test(text)) return text;
  let segmenter = segmenters.get(tag);
  if (!segmenter) segmenters.set(tag, (segmenter = new Intl.Segmenter(tag, { granularity: 'word' })));
  const cut = segmenter;
  return text
    .replace(UNSPACED_RUNS, (run) => {
      const words: string[] = [];
      for (const { segment, isWordLike } of cut.segment(run)) {
        if (!isWordLike) continue;
        const prefixed = NEGATING_PREFIX.exec(segment);
        if (CJK_NEGATION.test(segment)) words.push('not');
        // 不向, 没用: the segmenter joins a negation to the word after it.
        else if (prefixed && !NOT_A_NEGATION.has(segment)) words.push('not', prefixed[2] ?? '');
        else words.push(segment);
      }
      return ` ${words.join(' ')} `;
    })
    .replace(/[。．！？，、；：（）]/gu, (mark) => `${PUNCTUATION[mark] ?? mark} `)
    .replace(/ +([.,;:!?%)])/g, '$1')
    .replace(/ {2,}/g, ' ')
    .trim();
}

const UNSPACED_CHARS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}ー々〆';
const UNSPACED_RUN = new RegExp(`[${UNSPACED_CHARS}]`, 'u');
const UNSPACED_RUNS = new RegExp(`[${UNSPACED_CHARS}]+`, 'gu');

const PUNCTUATION: Record<string, string> = { '。': '.', '．': '.', '！': '!', '？': '?', '，': ',', '、': ',', '；': ';', '：': ':', '（': '(', '）': ')' };
