// Word handling shared by the lexicon (schema names) and the scanner (questions): identifiers
// split into words, a deliberately small singular/plural rule set applied the same way on both
// sides, the synonym table, and the words a question may contain without meaning anything.

/** `order_items`, `OrderItems`, `orderItems`, `order-items` → ['order', 'items']. */
export const splitIdentifier = (identifier: string): string[] =>
  identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);

/**
 * A table of words with no prototype: a question's word is looked up in it as typed, and
 * "constructor" or "toString" must find nothing rather than Object's own functions.
 */
export const wordTable = <T>(entries: Record<string, T>): Record<string, T> =>
  Object.assign(Object.create(null) as Record<string, T>, entries);

const irregularSingular: Record<string, string> = wordTable({
  people: 'person',
  persons: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  staff: 'staff',
  data: 'data',
  news: 'news',
  series: 'series',
  species: 'species',
  status: 'status',
  statuses: 'status',
  address: 'address',
  addresses: 'address',
  analyses: 'analysis',
  indices: 'index',
  criteria: 'criterion',
  feet: 'foot',
  mice: 'mouse',
  geese: 'goose',
  teeth: 'tooth',
  sales: 'sale',
  leaves: 'leaf',
  shelves: 'shelf',
  lives: 'life',
  wives: 'wife',
  knives: 'knife',
  halves: 'half',
});

const irregularPlural: Record<string, string> = wordTable(
  Object.fromEntries(
    Object.entries(irregularSingular)
      .filter(([plural, singular]) => plural !== singular && !['persons', 'statuses'].includes(plural))
      .map(([plural, singular]) => [singular, plural]),
  ),
);
irregularPlural.status = 'statuses';
irregularPlural.staff = 'staff';
irregularPlural.data = 'data';
irregularPlural.species = 'species';
irregularPlural.series = 'series';
irregularPlural.news = 'news';

const singularInOs = new Set(['chaos', 'cosmos', 'ethos', 'pathos', 'kudos', 'thermos', 'bathos', 'mythos']);

/**
 * Whether `short` is an abbreviation of `word`: three or more of its letters, in order, the first
 * first ("resv" of reservation, "pay" of payment, "freq" of frequency, "qty" of quantity).
 */
export const abbreviates = (short: string, word: string): boolean => {
  if (short.length < 3 || short.length > word.length - 2 || short[0] !== word[0]) return false;
  let at = 0;
  for (const letter of short) {
    at = word.indexOf(letter, at);
    if (at < 0) return false;
    at += 1;
  }
  return true;
};

/** Letters two words must begin alike with to be one word's forms ("placed", "placements"). */
const SHARED_STEM = 5;

/**
 * Whether two words are forms of one word: "placed" and "placement", "applied" and "application",
 * "pickups" and "pickup", "booking" and "booked" (one stem once the endings of verbs and nouns are
 * off, or five letters alike, or all but one of the shorter's from the fourth on).
 */
export const sameStem = (word: string, name: string): boolean => {
  const left = singular(word);
  const right = singular(name);
  if (left === right) return true;
  const stem = (text: string): string =>
    text.replace(/(?:ments?|ings?|ions?|ers?|ed|es)$/, '').replace(/e$/, '');
  if (stem(left).length >= 4 && stem(left) === stem(right)) return true;
  let shared = 0;
  while (shared < left.length && shared < right.length && left[shared] === right[shared]) shared += 1;
  return shared >= SHARED_STEM || (shared >= 4 && shared >= Math.min(left.length, right.length) - 1);
};

/** The singular of an English noun, by a small rule set: the same on schema and question words. */
export const singular = (word: string): string => {
  const irregular = irregularSingular[word];
  if (irregular) return irregular;
  if (word.length <= 3) return word;
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|zz)es$/.test(word)) return word.slice(0, -2);
  // "studios", "videos", "photos", "memos" are plurals; a few words end in -os as singulars.
  if (/os$/.test(word)) return singularInOs.has(word) ? word : word.slice(0, -1);
  if (/(us|ss|is)$/.test(word)) return word;
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
};

export const plural = (word: string): string => {
  const irregular = irregularPlural[word];
  if (irregular) return irregular;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|sh|ch|x|z)$/.test(word)) return `${word}es`;
  return `${word}s`;
};

/** A phrase as the lexicon keys it: words singularised and joined by one space. */
export const phraseKey = (words: readonly string[]): string => words.map(singular).join(' ');

/**
 * Synonyms by the singular word they stand for. Relations and columns whose (last) name word is a
 * key also answer to its synonyms, at a lower rank than their own name.
 */
export const synonyms: Record<string, string[]> = wordTable({
  customer: ['client', 'buyer', 'shopper', 'patron'],
  order: ['purchase'],
  product: ['item', 'article', 'merchandise'],
  employee: ['staff', 'worker', 'personnel', 'staffer'],
  store: ['shop', 'branch', 'outlet'],
  region: ['area', 'territory'],
  supplier: ['vendor'],
  invoice: ['bill'],
  appointment: ['booking', 'visit', 'reservation'],
  ticket: ['case', 'issue', 'request'],
  reservation: ['booking'],
  user: ['member'],
  country: ['nation'],
  city: ['town'],
  price: ['cost'],
  salary: ['pay', 'wage', 'compensation'],
  quantity: ['qty', 'unit'],
  email: ['mail'],
});

/** Alternative spellings folded before matching (both sides). */
export const spellings: Record<string, string> = wordTable({
  canceled: 'cancelled',
  cancelation: 'cancellation',
  catalogue: 'catalog',
  colour: 'color',
  organisation: 'organization',
  organisations: 'organizations',
  centre: 'center',
  'e-mail': 'email',
});

/**
 * Function words: never mapped to the schema (not even as sample values, unless quoted) and never
 * reported as not understood.
 */
export const stopwords = new Set(
  `a an the of in on at to for from with within by per and or is are was were be been being am do does did
  done have has had having there their they them those these this that it its i me my we our us you your he she
  his her what which who whom whose where when how please can could would should will shall may might must
  any some all each every just only also as than then so such into onto about across over under up down out
  off via vs versus one ones both either neither much many lot lots kind sort ever among amongst`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);

/**
 * Verbs and fillers a question may carry around the words that matter ("show me", "placed",
 * "bought"): skipped, never reported as not understood. They can still name sample values.
 */
export const fillers = new Set(
  `show list give tell get find display see know want like need return fetch look lookup provide report
  let see view retrieve give got get
  placed made make created registered joined signed happened received submitted bought purchased ordered sold
  sell buy placed work works worked working live lives lived living located based belong belongs
  belonging assigned registered came come generated spent spend paid owe owed recorded entered issued
  exist exists existing current currently right now today's data record records row rows entry entries
  information info detail details figure figures number
  new whole entire altogether overall take takes took taken taking`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);

/** Words a question uses to point back at the previous answer. */
export const anaphora = new Set(['those', 'them', 'these', 'they', 'ones']);

const numberWords: Record<string, number> = wordTable({
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  fifty: 50,
  hundred: 100,
  dozen: 12,
});

/** "three" → 3; undefined for any other word. */
export const numberWord = (word: string): number | undefined => numberWords[word];

/** First letter upper case. */
export const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** ["a", "b", "c"] → "a, b and c". */
export const joinAnd = (items: readonly string[], conjunction = 'and'): string => {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
};

/** Whether a phrase ends in a plural word ("order items"). */
export const pluralText = (text: string): boolean => {
  const last = text.split(' ').pop() ?? '';
  return singular(last) !== last;
};
