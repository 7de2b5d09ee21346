// Phrase knowledge of the builtin engine, as tables: the words and phrases that say how to
// compare, rank, count, group, sort, negate, exclude and follow up, the units of time and of
// measure, the words of columns that rankings and measures look for, the empty phrases and the
// engine's own words. scan.ts (through markers.ts) reads them at token positions (the first
// phrase of a list that matches wins, so a longer phrase comes before a shorter one that starts
// alike); interpret (statement.ts, resolve.ts) reads the rankings of size, span, dimension and
// rating and the words of measures; readings.ts and spans.ts read the empty phrases, the engine's
// words and the units of a duration. Behaviour lives in the readers; a new phrase is a new row.
import type { AggregateFn, CompareOp, Hint, TimeUnit } from './types.ts';
import { wordTable } from './words.ts';

// ---- comparisons --------------------------------------------------------------------------------

// Longest first: "no more than" before "more than".
export const comparisonWords: [string, CompareOp][] = [
  ['no more than', '<='],
  ['not more than', '<='],
  ['no less than', '>='],
  ['not less than', '>='],
  ['no fewer than', '>='],
  ['greater than or equal to', '>='],
  ['less than or equal to', '<='],
  ['more than', '>'],
  ['greater than', '>'],
  ['higher than', '>'],
  ['larger than', '>'],
  ['bigger than', '>'],
  ['over', '>'],
  ['above', '>'],
  ['exceeding', '>'],
  ['at least', '>='],
  ['minimum of', '>='],
  ['less than', '<'],
  ['fewer than', '<'],
  ['lower than', '<'],
  ['smaller than', '<'],
  ['cheaper than', '<'],
  ['under', '<'],
  ['below', '<'],
  ['at most', '<='],
  ['up to', '<='],
  ['maximum of', '<='],
  ['exactly', '='],
  ['equal to', '='],
  ['equals', '='],
];
export const comparisonPhrases = comparisonWords.map(([phrase]) => phrase);
export const comparisonOps = new Map(comparisonWords);
export const symbolOps: Record<string, CompareOp> = wordTable({
  '>': '>',
  '>=': '>=',
  '=>': '>=',
  '<': '<',
  '<=': '<=',
  '=': '=',
});

// ---- rankings -----------------------------------------------------------------------------------

export const superlatives: [string, 'asc' | 'desc', Hint | undefined][] = [
  ['highest number of', 'desc', undefined],
  ['largest number of', 'desc', undefined],
  ['greatest number of', 'desc', undefined],
  ['most number of', 'desc', undefined],
  ['biggest number of', 'desc', undefined],
  ['lowest number of', 'asc', undefined],
  ['smallest number of', 'asc', undefined],
  ['fewest number of', 'asc', undefined],
  ['least number of', 'asc', undefined],
  ['very first', 'asc', 'date'],
  ['very last', 'desc', 'date'],
  ['first', 'asc', 'date'],
  ['last', 'desc', 'date'],
  ['heaviest', 'desc', 'weight'],
  ['lightest', 'asc', 'weight'],
  ['tallest', 'desc', 'height'],
  ['longest', 'desc', 'length'],
  ['shortest', 'asc', 'length'],
  ['quickest', 'asc', 'length'],
  ['fastest', 'asc', 'length'],
  ['slowest', 'desc', 'length'],
  ['most common', 'desc', 'count'],
  ['most frequent', 'desc', 'count'],
  ['least common', 'asc', 'count'],
  ['least frequent', 'asc', 'count'],
  ['commonest', 'desc', 'count'],
  ['highest rated', 'desc', 'rating'],
  ['best rated', 'desc', 'rating'],
  ['top rated', 'desc', 'rating'],
  ['lowest rated', 'asc', 'rating'],
  ['worst rated', 'asc', 'rating'],
  ['most expensive', 'desc', 'money'],
  ['least expensive', 'asc', 'money'],
  ['most costly', 'desc', 'money'],
  ['least costly', 'asc', 'money'],
  ['most recent', 'desc', 'date'],
  ['most recently', 'desc', 'date'],
  ['best selling', 'desc', 'units'],
  ['top selling', 'desc', 'units'],
  ['best seller', 'desc', 'units'],
  ['bestselling', 'desc', 'units'],
  ['bestseller', 'desc', 'units'],
  ['most sold', 'desc', 'units'],
  ['most popular', 'desc', 'units'],
  ['least popular', 'asc', 'units'],
  ['least sold', 'asc', 'units'],
  ['worst selling', 'asc', 'units'],
  ['priciest', 'desc', 'money'],
  ['costliest', 'desc', 'money'],
  ['cheapest', 'asc', 'money'],
  ['newest', 'desc', 'date'],
  ['latest', 'desc', 'date'],
  ['oldest', 'asc', 'date'],
  ['earliest', 'asc', 'date'],
  ['most', 'desc', undefined],
  ['fewest', 'asc', undefined],
  ['least', 'asc', undefined],
  ['highest', 'desc', undefined],
  ['largest', 'desc', undefined],
  ['biggest', 'desc', undefined],
  ['greatest', 'desc', undefined],
  ['lowest', 'asc', undefined],
  ['smallest', 'asc', undefined],
];
export const superlativePhrases = superlatives.map(([phrase]) => phrase);
export const superlativeOf = new Map(superlatives.map(([phrase, dir, hint]) => [phrase, { dir, hint }]));

/** Superlatives of size: the rows ranked by the relation's one money column that measures the row. */
export const sizeRankings = new Set(['largest', 'biggest', 'smallest', 'highest', 'lowest']);
/** Words of a money column that measures the row itself ("the largest orders" by amount or total). */
export const rowSizeWords = new Set(['amount', 'amt', 'total', 'value', 'balance', 'sum']);
/** Words of what a row is worth in money ("the value of sales", "what was it worth"). */
export const worthWords = ['value', 'worth'];
/** Superlatives of length or speed: the rows ranked by the relation's one span ("the longest stay"). */
export const spanRankings = new Set(['longest', 'shortest', 'quickest', 'fastest', 'slowest']);
/** Words of a column a dimension ranks by ("heaviest" → weight_kg, "longest" → length). */
export const dimensionWords = {
  weight: new Set(['weight', 'mass']),
  height: new Set(['height']),
  length: new Set(['length', 'duration']),
} as const;
/** Words of a column that rates rows ("highest-rated"). */
/** Phrase knowledge: particles of phrasal verbs ("called off", "turned away", "written off"). */
export const VERB_PARTICLES = new Set([
  'off',
  'away',
  'out',
  'down',
  'up',
  'through',
  'back',
  'ahead',
  'over',
  'in',
]);

/** Phrase knowledge: words of dates and periods, which name no one date column ("this month", "due date"). */
export const CALENDAR_WORDS = new Set(
  `date dt time ts timestamp datetime day days week weeks month months year years quarter quarters
  today yesterday tomorrow last next this current past previous when`
    .split(/\s+/)
    .filter(Boolean),
);

export const ratingWords = new Set(['rating', 'ratings', 'score', 'stars', 'rank']);

// ---- measures ------------------------------------------------------------------------------------

/** Words of a numeric column that is averaged, never added up (a price, a rate, a score, an age). */
export const averagedWords = new Set([
  'price',
  'rate',
  'percent',
  'percentage',
  'ratio',
  'score',
  'rating',
  'age',
]);
/** Words of a numeric column that adds up (a quantity, an amount, a weight, hours). */
export const additiveWords = new Set([
  'quantity',
  'qty',
  'unit',
  'units',
  'count',
  'amount',
  'total',
  'cost',
  'weight',
  'hours',
  'minutes',
  'duration',
]);

// ---- aggregates and units of time ---------------------------------------------------------------

export const aggregates: [string, AggregateFn][] = [
  ['how many', 'count'],
  ['total number of', 'count'],
  ['total count of', 'count'],
  ['the count of', 'count'],
  ['number of', 'count'],
  ['count of', 'count'],
  ['count', 'count'],
  ['headcount of', 'count'],
  ['headcount', 'count'],
  ['how much', 'sum'],
  ['sum of', 'sum'],
  ['sum', 'sum'],
  ['total', 'sum'],
  ['totals', 'sum'],
  ['average', 'avg'],
  ['avg', 'avg'],
  ['mean', 'avg'],
  ['maximum', 'max'],
  ['max', 'max'],
  ['minimum', 'min'],
  ['min', 'min'],
];
export const aggregatePhrases = aggregates.map(([phrase]) => phrase);
export const aggregateOf = new Map(aggregates);

export const timeUnits: Record<string, TimeUnit> = wordTable({
  year: 'year',
  years: 'year',
  quarter: 'quarter',
  quarters: 'quarter',
  month: 'month',
  months: 'month',
  day: 'day',
  days: 'day',
  date: 'day',
  week: 'week',
  weeks: 'week',
  weekday: 'weekday',
  weekdays: 'weekday',
  hour: 'hour',
  hours: 'hour',
});
export const adverbUnits: Record<string, TimeUnit> = wordTable({
  yearly: 'year',
  annually: 'year',
  quarterly: 'quarter',
  monthly: 'month',
  daily: 'day',
  weekly: 'week',
});

/** Parts of a date said in several words: "day of the week", "hour of the day". */
export const unitPhrases: [string, TimeUnit][] = [
  ['day of the week', 'weekday'],
  ['day of week', 'weekday'],
  ['days of the week', 'weekday'],
  ['hour of the day', 'hour'],
  ['hour of day', 'hour'],
  ['time of day', 'hour'],
  ['time of the day', 'hour'],
];

// ---- sorting ------------------------------------------------------------------------------------

/** "placed by", "made by": `by` names who did it, not a grouping. */
export const agentVerbs =
  /^(placed|made|ordered|bought|purchased|created|handled|processed|managed|sold|paid|issued|served|submitted|owned|written|run)$/;

export const sortPhrases = [
  'sorted by',
  'ordered by',
  'order by',
  'sort by',
  'ranked by',
  'order the results by',
  'order the result by',
  'sort the results by',
  'order them by',
  'sort them by',
  'ordered alphabetically',
  'sorted alphabetically',
];

// ---- lists, negations and exclusions, follow-ups, directions ------------------------------------

export const listPhrases = [
  'show me',
  'show',
  'list',
  'list all',
  'give me',
  'display',
  'what are',
  'which are',
  'who are',
  'name the',
  'find',
  'get',
  'select',
  'which',
  'who',
];
/** Exclusions: each negates the filter that follows it ("apart from the terminated ones"). */
export const exclusionPhrases = [
  'other than',
  'rather than',
  'instead of',
  'as opposed to',
  'apart from',
  'aside from',
  'leaving aside',
  'setting aside',
  'not counting',
  'not including',
  'excepting',
  'except for',
  'excluding',
  'except',
];
/**
 * "pets without a microchip", "products with no category", "customers who never ordered", "vets
 * no longer active": an absent value, an absent related row, a yes/no column negated.
 */
export const absencePhrases = ['without any', 'without', 'no longer', 'no', 'never', 'missing', 'lacking'];
/**
 * Every phrase that negates what follows it, the longer of two that start alike first ("except
 * for" before "except"); "out of print", "out of stock": a yes/no column negated (anything else
 * is a clarification).
 */
export const negationPhrases = ['out of', ...exclusionPhrases, 'not', 'non', ...absencePhrases];
export const followupPhrases = [
  'same again but',
  'same again for',
  'same again',
  'same thing but',
  'same thing for',
  'same thing',
  'the same but',
  'the same for',
  'do the same for',
  'what about',
  'how about',
  'and for',
  'and in',
  'and what about',
  'same for',
  'same but',
  'now for',
  'now only',
  'only',
  'just',
];
export const directionPhrasesList: [string, 'asc' | 'desc'][] = [
  ['in descending order', 'desc'],
  ['in ascending order', 'asc'],
  ['in alphabetical order', 'asc'],
  ['in reverse order', 'desc'],
  ['from highest to lowest', 'desc'],
  ['from the highest to the lowest', 'desc'],
  ['from lowest to highest', 'asc'],
  ['from the lowest to the highest', 'asc'],
  ['highest first', 'desc'],
  ['lowest first', 'asc'],
];
export const directionPhrases = directionPhrasesList.map(([phrase]) => phrase);
export const directionOf = new Map(directionPhrasesList);
export const directionWords: Record<string, 'asc' | 'desc'> = wordTable({
  alphabetically: 'asc',
  alphabetical: 'asc',
  ascending: 'asc',
  asc: 'asc',
  descending: 'desc',
  desc: 'desc',
});

// ---- adverbs ------------------------------------------------------------------------------------

/** Adverbs of time that never name a measure, even right after "how much" or "total". */
export const timeAdverbs = new Set([
  'still',
  'ever',
  'already',
  'yet',
  'currently',
  'now',
  'so',
  'far',
  'very',
]);

// ---- grouping requests --------------------------------------------------------------------------

/** Phrase knowledge: verbs that ask for a grouping the "by" after them names ("break … down by"). */
export const GROUPING_REQUESTS: Record<string, readonly string[]> = wordTable({
  break: ['down', 'out'],
  split: ['up', 'out'],
  breakdown: [],
});

// ---- rates --------------------------------------------------------------------------------------

/** Phrase knowledge: the units of time an amount of money is quoted per ("$900 a month"). */
export const RATE_UNITS = new Set(['hour', 'night', 'day', 'week', 'month', 'year', 'annum']);

// ---- units of measure and of a duration ---------------------------------------------------------

/** What a unit measures; units of one dimension convert into each other by their factors. */
export type UnitDimension = 'time' | 'mass' | 'volume' | 'area' | 'length' | 'money' | 'share';

/**
 * A unit of measure: its name, what it measures, how many of the dimension's base unit one of it
 * is (seconds, kilograms, litres, square metres, metres; money and shares never convert), the
 * words a question says it with ("tonnes", "ha"), and the short forms an identifier writes it in
 * (qty_t, area_ha, labor_hrs: a form of one or two letters counts only as a name's last word).
 */
export interface MeasureUnit {
  name: string;
  dimension: UnitDimension;
  factor: number;
  spoken: readonly string[];
  written: readonly string[];
}

/** Rows of name | dimension | factor | spoken words | written forms. */
const unitRows = `
second | time | 1 | second seconds secs | sec secs seconds s
minute | time | 60 | minute minutes mins | mins minutes
hour | time | 3600 | hour hours hrs hr | h hr hrs hours
day | time | 86400 | day days | days
week | time | 604800 | week weeks | weeks wks
gram | mass | 0.001 | gram grams grammes | g gr grams
kilogram | mass | 1 | kilogram kilograms kilo kilos kg kgs | kg kgs kilos kilograms
tonne | mass | 1000 | tonne tonnes ton tons | t tonnes tons
pound weight | mass | 0.45359237 | lb lbs | lb lbs
litre | volume | 1 | litre litres liter liters ltr | l ltr ltrs litres liters
millilitre | volume | 0.001 | millilitre millilitres milliliters ml | ml
gallon | volume | 4.54609 | gallon gallons | gal gallons
hectare | area | 10000 | hectare hectares ha | ha hectares
acre | area | 4046.8564224 | acre acres | acres
square metre | area | 1 | sqm | sqm m2
square foot | area | 0.09290304 | sqft | sqft ft2
kilometre | length | 1000 | kilometre kilometres kilometers km kms | km kms
mile | length | 1609.344 | mile miles | mi miles
metre | length | 1 | metre metres meters | m metres meters
centimetre | length | 0.01 | centimetre centimetres centimeters cm | cm
millimetre | length | 0.001 | millimetre millimetres millimeters mm | mm
pound | money | 1 | pound pounds quid sterling gbp | gbp
dollar | money | 1 | dollar dollars bucks usd | usd cad aud
euro | money | 1 | euro euros eur | eur
money | money | 1 | chf jpy | chf jpy cents
percent | share | 1 | percent percentage pct | pct percent perc`;

export const MEASURE_UNITS: readonly MeasureUnit[] = unitRows
  .trim()
  .split('\n')
  .map((row) => {
    const [name, dimension, factor, spoken, written] = row.split('|').map((cell) => cell.trim());
    return {
      name: name!,
      dimension: dimension as UnitDimension,
      factor: Number(factor),
      spoken: spoken!.split(' '),
      written: written!.split(' '),
    };
  });

/** A measure kept by its unit's words over the others of a weighing (net over gross and tare). */
export const WEIGHINGS: Record<string, readonly string[]> = wordTable({ net: ['gross', 'tare'] });

/** Words of a column that bounds an amount rather than holding one (max_payload_kg). */
export const BOUND_WORDS = new Set(['max', 'min', 'maximum', 'minimum', 'capacity', 'limit', 'cap']);

/** Words that make the unit after them a rate ("price per tonne", "kg per hectare", "£/t"). */
export const PER_WORDS = new Set(['per', 'a', 'an', 'each', 'every']);

/** Units a column name may end in (weight_kg) and a number may be followed by ("38 kg"). */
export const unitWords = new Set(
  'kg kgs lb lbs g gr km mi cm mm ml usd eur gbp chf jpy cad aud pct ms sec secs mins hrs cents'.split(' '),
);

/** Broader terms of a noun that is a length of time ("downtime", "leave"): it names a span. */
export const SPAN_KINDS = new Set(['time period', 'period of time', 'time interval']);

/** The units a duration may be asked in ("in hours", "(days)", "how many minutes"). */
export const durationUnits = ['minute', 'hour', 'day', 'week'] as const;

// ---- empty phrases and the engine's own words ---------------------------------------------------

/** Phrase knowledge: the shape of an empty phrase (preposition, determiner, then the word). */
export const EMPTY_PHRASE = {
  prepositions: ['in', 'on', 'at', 'within', 'across', 'inside', 'throughout', 'for', 'with', 'from'],
  determiners: ['the', 'our', 'my', 'your', 'this', 'its', 'their', 'all', 'these', 'that'],
} as const;

/** Words the scanner reads as phrase knowledge (aggregates, rankings), for misspellings of them. */
export const ENGINE_WORDS =
  `total sum average mean count number many much revenue sales highest lowest largest smallest
  biggest most least top bottom maximum minimum cheapest expensive latest earliest recent oldest newest
  between before after since during per each every month year quarter week day today yesterday`
    .split(/\s+/)
    .filter(Boolean);

/** Columns that hold places, for a name after "in", "at" or "from". */
export const PLACE_COLUMN_WORDS = new Set([
  'city',
  'town',
  'country',
  'region',
  'area',
  'location',
  'state',
  'county',
  'district',
  'suburb',
  'neighbourhood',
  'neighborhood',
]);
