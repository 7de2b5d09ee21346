// Step 1 of the builtin pipeline: a question becomes a list of tokens (words, numbers, dates,
// quoted literals, comparison symbols). Words are lower-cased, spelling-folded and stripped of
// possessive 's; identifiers typed as such (order_items, orderItems) become their words.

import { MEASURE_UNITS } from './phrases.ts';
import type { Token } from './types.ts';
import { spellings, splitIdentifier, wordTable } from './words.ts';

const pattern = new RegExp(
  [
    // 1: a quoted literal ('…' needs a non-letter before it so that apostrophes stay in words)
    String.raw`"([^"]{1,200})"|“([^”]{1,200})”|‘([^’]{1,200})’|(?<![\p{L}\p{N}])'([^']{1,200})'(?![\p{L}\p{N}])`,
    // 5: an ISO date
    String.raw`(\d{4}[-/]\d{1,2}[-/]\d{1,2})(?![\d])`,
    // 6: a number, maybe with a currency sign, thousands separators, decimals, k/m and %
    String.raw`([$€£]\s?)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(k|m|bn)?(?![\p{L}\d])(%)?([$€£](?!\s?\d))?`,
    // 11: a word (letters, digits, underscores, inner apostrophes and hyphens)
    String.raw`([\p{L}_][\p{L}\p{N}_]*(?:['’][\p{L}]+)*)`,
    // 12: symbols
    String.raw`(>=|<=|!=|<>|=>|[<>=*;#+%()/\\|&@\x60{}\[\]])`,
    // 13: sentence breaks
    '([,.?!:])',
  ].join('|'),
  'gu',
);

/** Words of a currency after a number ("100 dollars", "8000 quid"): the units of money. */
const currencyWords = new Set(
  MEASURE_UNITS.flatMap((unit) => (unit.dimension === 'money' ? unit.spoken : [])),
);

/** Contractions, with and without the apostrophe: "don't" and "dont" → do not, "we've" → we have. */
const contractions: Record<string, string[]> = wordTable({
  "can't": ['can', 'not'],
  cant: ['can', 'not'],
  "won't": ['will', 'not'],
  wont: ['will', 'not'],
  dont: ['do', 'not'],
  doesnt: ['does', 'not'],
  didnt: ['did', 'not'],
  isnt: ['is', 'not'],
  arent: ['are', 'not'],
  wasnt: ['was', 'not'],
  werent: ['were', 'not'],
  havent: ['have', 'not'],
  hasnt: ['has', 'not'],
  hadnt: ['had', 'not'],
  whats: ['what', 'is'],
  thats: ['that', 'is'],
  whos: ['who', 'is'],
  hows: ['how', 'is'],
  theres: ['there', 'is'],
});
const contractedEndings: [RegExp, string][] = [
  [/n't$/, 'not'],
  [/'ve$/, 'have'],
  [/'re$/, 'are'],
  [/'ll$/, 'will'],
  [/'d$/, 'would'],
  [/'m$/, 'am'],
];

/** Country abbreviations written in capitals ("customers in the US"): the names data holds. */
const abbreviations = wordTable<string[]>({
  US: ['United', 'States'],
  USA: ['United', 'States'],
  UK: ['United', 'Kingdom'],
  UAE: ['United', 'Arab', 'Emirates'],
});

const wordTokens = (raw: string): Token[] => {
  const spelledOut = abbreviations[raw];
  if (spelledOut) return spelledOut.map((word) => ({ kind: 'word', text: word.toLowerCase(), cased: word }));
  let text = raw.replace(/’/g, "'").toLowerCase();
  // Possessives: customer's → customer, customers' is plain.
  const possessive = /'s$/.test(text);
  text = text.replace(/'s$/, '');
  const expanded = contractions[text];
  if (expanded) return expanded.map((word) => ({ kind: 'word', text: word }));
  if (text.includes("'")) {
    const ending = contractedEndings.find(([pattern]) => pattern.test(text));
    if (ending) {
      const base = text.replace(ending[0], '');
      return [
        { kind: 'word', text: base === 'ca' ? 'can' : base === 'wo' ? 'will' : base },
        { kind: 'word', text: ending[1] },
      ];
    }
    return [{ kind: 'word', text: spellings[text] ?? text }];
  }
  const words = text.includes('_') || /[a-z][A-Z]/.test(raw) ? splitIdentifier(raw) : [text];
  if (words.length === 1 && /^\p{Lu}\p{Ll}/u.test(raw)) {
    return [
      {
        kind: 'word',
        text: spellings[text] ?? text,
        cased: raw.replace(/['’]s$/, ''),
        ...(possessive ? { possessive: true as const } : {}),
      },
    ];
  }
  return words.map((word) => ({ kind: 'word', text: spellings[word] ?? word }));
};

const multipliers: Record<string, number> = wordTable({ k: 1_000, m: 1_000_000, bn: 1_000_000_000 });

// ---- dates written with a day -------------------------------------------------------------------

const monthNumbers: Record<string, number> = wordTable({
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
});
const monthPattern = Object.keys(monthNumbers).join('|');
const ordinal = '(?:st|nd|rd|th)?';
/** "3 May 2025", "3rd of May", "May 3, 2025", "May 3rd": a day, a month, maybe a year. */
const writtenDate = new RegExp(
  [
    String.raw`\b(\d{1,2})${ordinal}\s+(?:of\s+)?(${monthPattern})\.?(?:,?\s+(\d{4}))?\b`,
    String.raw`\b(${monthPattern})\.?\s+(\d{1,2})${ordinal}(?!\s*(?:[:.]\d|%))(?:,?\s+(\d{4}))?\b(?!\s*(?:am|pm)\b)`,
  ].join('|'),
  'gi',
);

/**
 * Dates written with a day ("from 3 May to 9 June 2025", "on May 3rd, 2025") as ISO dates, which
 * the scanner reads as days. A day without a year takes the year of the next date that has one
 * ("3 May to 9 June 2025"); without any year it is left as written (the question is asked back).
 * "may" in lower case before a number is a verb, not May.
 */
export const withIsoDates = (text: string): string => {
  const found = [...text.matchAll(writtenDate)].flatMap((match) => {
    const dayFirst = match[1] !== undefined;
    const monthWord = (dayFirst ? match[2] : match[4]) ?? '';
    if (!dayFirst && monthWord === 'may') return [];
    const day = Number(dayFirst ? match[1] : match[5]);
    const month = monthNumbers[monthWord.toLowerCase()]!;
    const year = (dayFirst ? match[3] : match[6]) as string | undefined;
    return [{ at: match.index, length: match[0].length, day, month, year: year ? Number(year) : undefined }];
  });
  let result = text;
  for (let index = found.length - 1; index >= 0; index -= 1) {
    const date = found[index]!;
    const year = date.year ?? found.slice(index + 1).find((later) => later.year !== undefined)?.year;
    if (year === undefined) continue;
    const days = new Date(Date.UTC(year, date.month, 0)).getUTCDate();
    if (date.day < 1 || date.day > days) continue;
    const iso = `${year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
    result = result.slice(0, date.at) + iso + result.slice(date.at + date.length);
  }
  return result;
};

export const tokenize = (question: string): Token[] => {
  const tokens: Token[] = [];
  // Hyphens join words ("best-selling", "30-day") and separate ranges ("10-20"): treat as spaces.
  // An ordinal day not before a month ("since the 21st") as its number and suffix ("21 st").
  const text = withIsoDates(question.normalize('NFC'))
    .replace(/(?<=\p{L})[-–—](?=[\p{L}\p{N}])|(?<=\p{N})[-–—](?=\p{L})/gu, ' ')
    .replace(/(?<![\p{L}\p{N}.,])(\d{1,2})(st|nd|rd|th)(?![\p{L}\p{N}])/giu, '$1 $2');
  for (const match of text.matchAll(pattern)) {
    const quoted = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (quoted !== undefined) {
      tokens.push({ kind: 'quoted', text: quoted.trim() });
    } else if (match[5] !== undefined) {
      const [year, month, day] = match[5].split(/[-/]/);
      tokens.push({ kind: 'date', iso: `${year}-${month!.padStart(2, '0')}-${day!.padStart(2, '0')}` });
    } else if (match[7] !== undefined) {
      const base = Number(match[7].replaceAll(',', ''));
      const multiplier = match[8] ? (multipliers[match[8]] ?? 1) : 1;
      tokens.push({
        kind: 'number',
        value: base * multiplier,
        money: match[6] !== undefined || match[10] !== undefined,
        percent: match[9] !== undefined,
        raw: match[0].trim(),
      });
    } else if (match[11] !== undefined) {
      const words = wordTokens(match[11]);
      // "Northwind Athletics' members": an apostrophe after a plural is a possessive too.
      const last = words[words.length - 1];
      if (
        last?.kind === 'word' &&
        last.cased &&
        /^['’]/.test(text.slice((match.index ?? 0) + match[0].length))
      )
        last.possessive = true;
      const previous = tokens[tokens.length - 1];
      // "100 dollars", "50 euros": the number is money and the word is spent.
      if (words.length === 1 && previous?.kind === 'number' && currencyWords.has(match[11].toLowerCase())) {
        previous.money = true;
        continue;
      }
      tokens.push(...words);
    } else if (match[12] !== undefined) {
      tokens.push({ kind: 'symbol', text: match[12] });
    } else if (match[13] !== undefined) {
      tokens.push({ kind: 'break', text: match[13] });
    }
  }
  return tokens;
};
