// Step 2 of the builtin pipeline, units of measure: the unit a column's values are in (written in
// its name, labor_hrs, qty_t, area_ha, or said by its description, "Tonnes on the lorry."), the
// unit a question's word says ("tonnes", "hours", "ha"), and the factor between two units of one
// dimension (net_kg asked in tonnes). The units are the table `MEASURE_UNITS` in phrases.ts.
import type { ColumnRef, Measure } from './intent.ts';
import { BOUND_WORDS, MEASURE_UNITS, type MeasureUnit, PER_WORDS, WEIGHINGS } from './phrases.ts';
import type { ColumnInfo, Lexicon } from './types.ts';
import { wordTable } from './words.ts';

const bySpoken: Record<string, MeasureUnit> = wordTable(
  Object.fromEntries(MEASURE_UNITS.flatMap((unit) => unit.spoken.map((word) => [word, unit]))),
);
const byWritten: Record<string, MeasureUnit> = wordTable(
  Object.fromEntries(MEASURE_UNITS.flatMap((unit) => unit.written.map((form) => [form, unit]))),
);

/** Dimensions whose units a question word links to a column by, and converts between. */
const MEASURED = new Set(['time', 'mass', 'volume', 'area', 'length']);

/** The unit a question's word says ("tonnes", "hrs", "ha", "quid"), if any. */
export const unitSaid = (word: string): MeasureUnit | undefined => bySpoken[word.toLowerCase()];

/** The unit a question's word says, when it is one a quantity column is measured in. */
export const quantityUnitSaid = (word: string): MeasureUnit | undefined => {
  const unit = unitSaid(word);
  return unit && MEASURED.has(unit.dimension) ? unit : undefined;
};

/** Whether a column's unit (by name) measures a quantity: a time, mass, volume, area or length. */
export const isQuantityUnit = (name: string | undefined): boolean => {
  const unit = name === undefined ? undefined : unitNamed(name);
  return unit !== undefined && MEASURED.has(unit.dimension);
};

/** Words a price, a rate or a share is named by: per unit of something, never an amount of it. */
const perUnitWords = /^(price|rate|rates|cost|fee|tariff|ratio|avg|average|mean|pct|percent|per)$/;

/**
 * The unit a numeric column's values are in: a unit form among the words of its name (qty_t,
 * labor_hrs, litres_qty; a form of one or two letters only as the last word), else the one unit
 * its description says ("Tonnes on the lorry.", "Cropped area of the field in hectares.").
 * Undefined for a rate: a unit after "per" ("price per tonne", "kg per hectare"), two units
 * (seed_rate_kg_ha), or a quantity unit in the name of money, a price or a rate (base_price_t is
 * money per tonne, not tonnes).
 */
export const columnUnit = (
  words: readonly string[],
  description: string | undefined,
  money: boolean,
): MeasureUnit | undefined => {
  const named = words.flatMap((word, index) => {
    const unit = byWritten[word];
    if (!unit || (word.length <= 2 && index !== words.length - 1)) return [];
    return [{ unit, per: index > 0 && PER_WORDS.has(words[index - 1]!) }];
  });
  const fromName = single(named);
  if (fromName === 'rate') return undefined;
  const ratedName = words.some((word) => perUnitWords.test(word));
  if (fromName) return fromName.dimension === 'money' ? fromName : money || ratedName ? undefined : fromName;
  if (named.length > 0) return undefined;
  const text = (description ?? '').toLowerCase().split(/[^a-z0-9£$€%]+/);
  const described = text.flatMap((word, index) => {
    const unit = bySpoken[word];
    if (!unit || word.length < 2) return [];
    return [{ unit, per: index > 0 && (PER_WORDS.has(text[index - 1]!) || text[index - 1] === 'x') }];
  });
  const fromDescription = single(described);
  if (fromDescription === 'rate' || !fromDescription) return undefined;
  // A decimal described "in pounds" holds money, whatever its name.
  if (fromDescription.dimension === 'money') return fromDescription;
  return money || ratedName ? undefined : fromDescription;
};

/** The one unit of a list of mentions of units; 'rate' when one is per another, or two differ. */
const single = (found: { unit: MeasureUnit; per: boolean }[]): MeasureUnit | 'rate' | undefined => {
  if (found.some((mention) => mention.per)) return 'rate';
  const units = new Set(found.map((mention) => mention.unit));
  if (units.size > 1) return 'rate';
  return found[0]?.unit;
};

/** Whether a question word is said in a unit a column measured in `unit` can be given in. */
export const convertible = (unit: MeasureUnit | undefined, said: MeasureUnit | undefined): boolean =>
  unit !== undefined &&
  said !== undefined &&
  MEASURED.has(unit.dimension) &&
  unit.dimension === said.dimension;

/** The factor from a column's unit to the unit asked (kilograms to tonnes: 0.001). */
export const unitFactor = (from: MeasureUnit, to: MeasureUnit): number => from.factor / to.factor;

/** A unit by its name, as an intent keeps it. */
export const unitNamed = (name: string): MeasureUnit | undefined =>
  MEASURE_UNITS.find((unit) => unit.name === name);

/** The plural a unit is said in, for names and descriptions ("tonnes", "hectares"). */
export const unitPlural = (unit: MeasureUnit): string =>
  unit.spoken.find((word) => word.length > unit.name.length && word.startsWith(unit.name.split(' ')[0]!)) ??
  unit.spoken[1] ??
  unit.name;

/**
 * The phrases a column measured in a unit answers to besides its name: the words of its unit and,
 * but for time, of the other units of its dimension ("tonnes", "tons", "kg" for net_kg), and its
 * name with the unit said in words ("labor hours" for labor_hrs). Money and shares have none.
 */
export const unitPhrases = (
  column: Pick<ColumnInfo, 'words' | 'unit'>,
  siblings: readonly Pick<ColumnInfo, 'words' | 'unit'>[],
): { bare: string[]; named: string[][] } => {
  const { words } = column;
  const unit = column.unit === undefined ? undefined : unitNamed(column.unit);
  if (!unit || !MEASURED.has(unit.dimension)) return { bare: [], named: [] };
  const others = unit.dimension === 'time' ? [] : MEASURE_UNITS.filter((other) => convertible(unit, other));
  // A gross or tare weight beside the net one (harvest_intakes.gross_kg, tare_kg, net_kg): the net
  // is the amount the unit's words mean.
  const weighed = Object.entries(WEIGHINGS).some(
    ([kept, left]) =>
      words.some((word) => left.includes(word)) &&
      siblings.some((other) => other.unit === column.unit && other.words.includes(kept)),
  );
  // A bound (trucks.max_payload_kg, rooms.capacity_hrs) is no amount of the unit.
  const bound = words.some((word) => BOUND_WORDS.has(word));
  const bare =
    weighed || bound ? [] : [...new Set([...unit.spoken, ...others.flatMap((other) => other.spoken)])];
  const at = words.findIndex((word) => byWritten[word] === unit);
  const rest = words.filter((_, index) => index !== at);
  const named =
    at < 0 || words.length < 2
      ? []
      : [
          ...unit.spoken.map((spoken) => words.map((word, index) => (index === at ? spoken : word))),
          // lead_time_days → "lead time": a unit written out in the name is not said (a letter or two
          // may be part of a word, area_ha: "area" is not said for it).
          ...(words[at]!.length >= 3 && rest.length > 0 ? [rest] : []),
        ];
  return { bare, named };
};

/**
 * A column as a measure, in the unit the question says when that is another of its dimension
 * ("total tonnes" of net_kg: in tonnes), else as it is.
 */
export const columnMeasure = (column: ColumnInfo | undefined, ref: ColumnRef, text: string): Measure => {
  const said = quantityUnitSaid(text.split(' ').pop() ?? '');
  const own = column?.unit === undefined ? undefined : unitNamed(column.unit);
  return own && said && said !== own && convertible(own, said)
    ? { kind: 'column', ref, unit: said.name }
    : { kind: 'column', ref };
};

/** The words a measure's unit adds to its name: "_in_tonnes", " in tonnes", or nothing. */
export const unitSuffix = (measure: { unit?: string }, joiner: string): string => {
  const unit = measure.unit === undefined ? undefined : unitNamed(measure.unit);
  return unit ? `${joiner}${unitPlural(unit)}` : '';
};

/** A column's SQL in the unit its measure asks (net_kg in tonnes: `hi.net_kg / 1000.0`). */
export const converted = (
  lexicon: Lexicon,
  measure: { ref: ColumnRef; unit?: string },
  sql: string,
): string => {
  const to = measure.unit === undefined ? undefined : unitNamed(measure.unit);
  const ownName = lexicon.relations.get(measure.ref.table)?.byName.get(measure.ref.column)?.unit;
  const from = ownName === undefined ? undefined : unitNamed(ownName);
  if (!to || !from || !convertible(from, to)) return sql;
  const factor = unitFactor(from, to);
  if (factor === 1) return sql;
  const inverse = 1 / factor;
  return Number.isInteger(Math.round(inverse * 1e6) / 1e6) && inverse > 1
    ? `(${sql} / ${Math.round(inverse)}.0)`
    : `(${sql} * ${Number(factor.toPrecision(12))})`;
};
